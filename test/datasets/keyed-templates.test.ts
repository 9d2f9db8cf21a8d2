import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

const FIELDS = [{ key: 'sku' }, { key: 'region' }, { key: 'price', type: 'number' }];

describe('keyed templates: primaryKey in the dialect and in Table Schema', () => {
  const { h, env } = useHarness();
  const createTemplate = (body: unknown) => call(h, 'POST', '/v1/templates', { key: env.secretKey, body });

  it('accepts a primaryKey of declared fields, as a list or one name, and gives it back', async () => {
    for (const [key, primaryKey] of [['k-list', ['sku', 'region']], ['k-one', 'sku']] as const) {
      const response = await createTemplate({ key, schema: { fields: FIELDS, primaryKey } });
      assert.equal(response.status, 201, await response.clone().text());
      assert.deepEqual((await json(response)).schema.primaryKey, primaryKey);
    }
  });

  const bad = [
    { name: 'an undeclared field', schema: { fields: FIELDS, primaryKey: ['sku', 'colour'] }, path: 'schema.primaryKey.1', message: /"colour" is not a declared field/ },
    { name: 'one undeclared name', schema: { fields: FIELDS, primaryKey: 'colour' }, path: 'schema.primaryKey', message: /"colour" is not a declared field/ },
    { name: 'an empty list', schema: { fields: FIELDS, primaryKey: [] }, path: 'schema.primaryKey', message: /at least one/ },
    { name: 'a Table Schema naming no field', schema: { fields: [{ name: 'sku' }], primaryKey: ['colour'] }, path: 'schema.primaryKey.0', message: /"colour" is not a field/ },
  ];
  for (const c of bad) {
    it(`refuses a primaryKey naming ${c.name}: 400 validation_failed at ${c.path}`, async () => {
      const response = await createTemplate({ key: 'bad', schema: c.schema });
      assert.equal(response.status, 400);
      const { error } = await json(response);
      assert.equal(error.code, 'validation_failed');
      const detail = error.details.find((d: any) => d.path === c.path);
      assert.ok(detail, JSON.stringify(error.details));
      assert.match(detail.message, c.message);
    });
  }

  it('makes key fields required and refuses two rows of one key (duplicate_key naming both rows)', async () => {
    await createTemplate({ key: 'prices', schema: { fields: FIELDS, primaryKey: ['sku', 'region'], onInvalid: 'reject' } });
    const rows = [
      { sku: 'A', region: 'eu', price: 1 },
      { sku: 'A', region: 'us', price: 2 },
      { sku: 'B', price: 3 },
      { sku: 'A', region: 'eu', price: 4 },
    ];
    const response = await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: 'prices' }, rows } });
    assert.equal(response.status, 422);
    const { error } = await json(response);
    assert.deepEqual(error.errors.map((e: any) => [e.rowIndex, e.key, e.code]), [[2, 'region', 'required'], [3, 'sku+region', 'duplicate_key']]);
    assert.match(error.errors[1].message, /rows 0 and 3/);
  });

  it('Table Schema primaryKey round-trips and is enforced', async () => {
    const response = await createTemplate({ key: 'ts', schema: { fields: [{ name: 'id', type: 'integer' }, { name: 'name' }], primaryKey: 'id' } });
    assert.equal(response.status, 201, await response.clone().text());
    const { id } = await json(response);
    const table = await json(await call(h, 'GET', `/v1/templates/${id}?format=frictionless`, { key: env.secretKey }));
    assert.equal(table.schema.primaryKey, 'id');
    const created = await json(await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: 'ts' }, rows: [{ id: '1' }, { id: 1 }] } }));
    assert.deepEqual(created.meta.counts, { totalRows: 2, validRows: 1, erroredRows: 1, discardedRows: 0 });
  });
});
