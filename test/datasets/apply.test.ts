import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { walkPages } from '../imports/helpers';

const SCHEMA = { fields: [{ key: 'sku' }, { key: 'price', type: 'number' }, { key: 'name' }], primaryKey: ['sku'] };

describe('keyed templates: imports applied to the dataset', () => {
  const { h, env } = useHarness();
  const post = (body: Record<string, unknown>) => call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: 'prices' }, ...body } });
  const created = async (body: Record<string, unknown>) => {
    const response = await post(body);
    assert.equal(response.status, 201, await response.clone().text());
    return await json(response);
  };
  const get = async (url: string) => {
    const response = await call(h, 'GET', url, { key: env.secretKey });
    assert.equal(response.status, 200, await response.clone().text());
    return await json(response);
  };

  it('classifies rows inserted, updated (with previous values), unchanged; counts and lists the missing keys', async () => {
    assert.equal((await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { key: 'prices', schema: SCHEMA } })).status, 201);
    const first = await created({ rows: [{ sku: 'A', price: '1', name: 'a' }, { sku: 'B', price: 2, name: 'b' }, { sku: 'C', price: 3, name: 'c' }] });
    assert.deepEqual(first.changes, { inserted: 3, updated: 0, unchanged: 0, missing: 0, removed: 0 });
    const second = await created({ rows: [{ sku: 'A', price: 1, name: 'a' }, { sku: 'B', price: 20, name: 'b' }, { sku: 'D', price: 4, name: 'd' }] });
    assert.deepEqual(second.changes, { inserted: 1, updated: 1, unchanged: 1, missing: 1, removed: 0 });
    const detail = await get(`/v1/imports/${second.id}`);
    assert.deepEqual(detail.changes, second.changes);
    assert.equal(detail.mode, 'upsert');
    const listed = await get('/v1/imports?limit=1');
    assert.deepEqual(listed.data[0].changes, second.changes);

    const updated = await get(`/v1/imports/${second.id}/rows?change=updated`);
    assert.deepEqual(updated.data, [{ rowIndex: 1, data: { sku: 'B', price: 20, name: 'b' }, previous: { price: 2 } }]);
    assert.equal(updated.pagination.paging.total, 1);
    assert.deepEqual((await get(`/v1/imports/${second.id}/rows?change=inserted`)).data.map((r: any) => r.rowIndex), [2]);
    assert.deepEqual((await get(`/v1/imports/${second.id}/rows?change=unchanged`)).data.map((r: any) => r.rowIndex), [0]);
    assert.deepEqual((await get(`/v1/imports/${second.id}/missing`)).data, [{ key: ['C'] }]);

    const records = await walkPages(h, env.secretKey, `/v1/templates/${first.templateId}/records?limit=2`);
    assert.deepEqual(records.items.map((r: any) => [r.key, r.record.price, r.importId]), [
      [['A'], 1, first.id],
      [['B'], 20, second.id],
      [['C'], 3, first.id],
      [['D'], 4, second.id],
    ]);
    const one = await get(`/v1/templates/${first.templateId}/records?key=B`);
    assert.equal(one.data.length, 1);
    assert.equal(one.data[0].importId, second.id);
    assert.equal(one.data[0].endUserId, null);
    assert.equal(typeof one.data[0].updatedAt, 'string');
    assert.equal((await get(`/v1/templates/${first.templateId}/records?key=${encodeURIComponent('["Z"]')}`)).data.length, 0);
  });

  it('replace removes the keys the import did not carry and keeps them as its missing keys', async () => {
    const replaced = await created({ mode: 'replace', rows: [{ sku: 'A', price: 1, name: 'a' }, { sku: 'E', price: 5, name: 'e' }] });
    assert.deepEqual(replaced.changes, { inserted: 1, updated: 0, unchanged: 1, missing: 3, removed: 3 });
    assert.deepEqual((await get(`/v1/imports/${replaced.id}/missing?limit=2`)).data, [{ key: ['B'] }, { key: ['C'] }]);
    const records = await get(`/v1/templates/${replaced.templateId}/records`);
    assert.deepEqual(records.data.map((r: any) => r.key[0]), ['A', 'E']);
    assert.equal(records.pagination.paging.total, 2);
    const csv = await call(h, 'GET', `/v1/templates/${replaced.templateId}/records/export?format=csv`, { key: env.secretKey });
    assert.equal(csv.status, 200);
    assert.equal(await csv.text(), 'sku,price,name\r\nA,1,a\r\nE,5,e\r\n');
    const ndjson = await call(h, 'GET', `/v1/templates/${replaced.templateId}/records/export?format=ndjson`, { key: env.secretKey });
    assert.deepEqual((await ndjson.text()).trim().split('\n').map((line) => JSON.parse(line).sku), ['A', 'E']);
  });

  it('an invalid row kept is not applied; deleting an import leaves the dataset as it is', async () => {
    const kept = await created({ rows: [{ sku: 'F', price: 'x' }, { sku: 'G', price: 7 }] });
    assert.deepEqual(kept.changes, { inserted: 1, updated: 0, unchanged: 0, missing: 2, removed: 0 });
    const [applied] = (await h.sql('SELECT id FROM applied_imports WHERE import_id = ?', kept.id)) as [{ id: number }];
    assert.deepEqual(await h.sql('SELECT count(*) AS n FROM import_changes WHERE applied_id = ?', applied.id), [{ n: 1 }]);
    assert.equal((await call(h, 'DELETE', `/v1/imports/${kept.id}`, { key: env.secretKey })).status, 200);
    assert.deepEqual(await h.sql('SELECT count(*) AS n FROM import_changes WHERE applied_id = ?', applied.id), [{ n: 0 }]);
    assert.deepEqual(await h.sql('SELECT count(*) AS n FROM applied_imports WHERE import_id = ?', kept.id), [{ n: 0 }]);
    const records = await get(`/v1/templates/${kept.templateId}/records?key=G`);
    assert.equal(records.data[0].importId, kept.id);
  });

  it('an import read in several chunks is applied whole, past a chunk of invalid rows only', async () => {
    // The apply reads an import 2000 rows at a time: the first 2000 rows (all invalid) give it nothing to apply,
    // the 2550 valid ones after them span two more chunks (and SQLite's changes, inserted 100 to a statement,
    // end on a part of one).
    const rows = Array.from({ length: 4550 }, (_, i) => (i < 2000 ? { sku: `N${i}`, price: 'x' } : { sku: `N${i}`, price: i, name: 'n' }));
    const applied = await created({ rows });
    assert.deepEqual({ ...applied.changes, missing: 0 }, { inserted: 2550, updated: 0, unchanged: 0, missing: 0, removed: 0 });
    const inserted = await get(`/v1/imports/${applied.id}/rows?change=inserted&limit=1`);
    assert.equal(inserted.data[0].rowIndex, 2000);
    assert.equal(inserted.pagination.paging.total, 2550);
    const stored = 'SELECT count(*) AS n FROM import_changes c JOIN applied_imports a ON a.id = c.applied_id WHERE a.import_id = ?';
    assert.deepEqual(await h.sql(stored, applied.id), [{ n: 2550 }]);
    assert.equal((await get(`/v1/templates/${applied.templateId}/records?key=N4549`)).data[0].record.price, 4549);
    assert.equal((await get(`/v1/templates/${applied.templateId}/records?key=N1999`)).data.length, 0);
  });

  it('matches and stores keys and texts with quotes, backslashes, line breaks, braces and non-ASCII as sent', async () => {
    const schema = { fields: [{ key: 'code' }, { key: 'note' }], primaryKey: ['code'] };
    assert.equal((await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { key: 'texts', schema } })).status, 201);
    const codes = ['a"b\\c', 'é😀\u0001', '{1,"2"}', 'NULL'];
    const body = (notes: string[]) => ({ meta: { schemaKey: 'texts' }, rows: codes.map((code, i) => ({ code, note: notes[i] })) });
    const first = await json(await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: body(['x\ny', 'tab\t"', 'null', '\\']) }));
    assert.deepEqual(first.changes, { inserted: 4, updated: 0, unchanged: 0, missing: 0, removed: 0 });
    const second = await json(await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: body(['x\ny', 'tab\t"!', 'null', '\\']) }));
    assert.deepEqual(second.changes, { inserted: 0, updated: 1, unchanged: 3, missing: 0, removed: 0 });
    const updated = await get(`/v1/imports/${second.id}/rows?change=updated`);
    assert.deepEqual(updated.data, [{ rowIndex: 1, data: { code: codes[1], note: 'tab\t"!' }, previous: { note: 'tab\t"' } }]);
    for (const code of codes) {
      const found = await get(`/v1/templates/${first.templateId}/records?key=${encodeURIComponent(JSON.stringify([code]))}`);
      assert.deepEqual(found.data.map((r: any) => r.record.code), [code]);
    }
  });

  const bad = [
    { name: 'mode on an unkeyed template', body: { meta: { schemaKey: 'free' }, mode: 'replace', rows: [{ a: 1 }] }, path: 'mode' },
    { name: 'an unknown mode', body: { meta: { schemaKey: 'prices' }, mode: 'merge', rows: [{ sku: 'A' }] }, path: 'mode' },
  ];
  for (const c of bad) {
    it(`refuses ${c.name}: 400 validation_failed at ${c.path}, nothing stored`, async () => {
      const before = (await h.sql('SELECT count(*) AS n FROM imports'))[0]!.n;
      const response = await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: c.body });
      assert.equal(response.status, 400);
      const { error } = await json(response);
      assert.equal(error.code, 'validation_failed');
      assert.equal(error.details[0].path, c.path);
      assert.equal((await h.sql('SELECT count(*) AS n FROM imports WHERE status = ?', 'complete'))[0]!.n, before);
    });
  }

  it('reads of an unkeyed import or template refuse change, missing and records', async () => {
    const free = await json(await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: 'free2' }, rows: [{ a: 1 }] } }));
    assert.equal(free.changes, undefined);
    for (const url of [`/v1/imports/${free.id}/rows?change=updated`, `/v1/imports/${free.id}/missing`, `/v1/templates/${free.templateId}/records`]) {
      const response = await call(h, 'GET', url, { key: env.secretKey });
      assert.equal(response.status, 400, url);
    }
  });
});
