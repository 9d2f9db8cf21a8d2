import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createTemplate } from '../../src/services/templates';
import { cliOnHarness } from '../helpers/cli';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

const FIELDS = [
  { key: 'email', type: 'email', required: true, unique: true, transforms: ['lowercase'] },
  { key: 'qty', type: 'integer', min: 0 },
  { key: 'born', type: 'date', formats: ['DD/MM/YYYY', 'excel'] },
  { key: 'country', type: 'enum', options: [{ value: 'CI', label: "Côte d'Ivoire" }, { value: 'FR', label: 'France' }] },
  { key: 'zip' },
];
const GOOD = [
  { email: 'A@X.IO', qty: '3', born: '03/04/2025', country: "cote d'ivoire", zip: '00123' },
  { email: 'b@x.io', qty: 0, born: 45720, country: 'FR', zip: '02139', extra: 'kept' },
];
const BAD = [
  { email: 'not-an-email', qty: '-1', born: '2025-02-31', country: 'Spain' },
  { email: 'a@x.io', qty: '1.5' },
];

describe('imports into a declared template: the onInvalid policies', () => {
  const { h, env } = useHarness();
  const template = async (key: string, extra: Record<string, unknown>) => createTemplate(h.ctx, env.accountId, { key, schema: { fields: FIELDS, ...extra } });
  const post = (body: unknown) => call(h, 'POST', '/v1/imports', { key: env.secretKey, body });
  const postNdjson = (lines: unknown[]) =>
    call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody: lines.map((line) => JSON.stringify(line)).join('\n'), contentType: 'application/x-ndjson' });
  const importsOf = async (templateId: string) => (await h.sql('SELECT id FROM imports WHERE template_id = ?', templateId)).length;
  const storedRows = async (importId: string) =>
    (await h.sql<{ data: string }>('SELECT data FROM import_rows WHERE import_id = ? ORDER BY row_index', importId)).map((row) => JSON.parse(row.data));

  it('reject: 422 validation_failed with each invalid cell (rowIndex, key, code, message, value) and errorCount; nothing stored', async () => {
    const { id } = await template('strict', { onInvalid: 'reject' });
    for (const send of [() => post({ meta: { schemaKey: 'strict' }, rows: [...GOOD, ...BAD] }), () => postNdjson([{ meta: { schemaKey: 'strict' } }, ...GOOD, ...BAD])]) {
      const response = await send();
      assert.equal(response.status, 422);
      const { error } = await json(response);
      assert.equal(error.code, 'validation_failed');
      assert.equal(error.errorCount, 6);
      assert.deepEqual(
        error.errors.map((e: any) => [e.rowIndex, e.key, e.code, e.value]),
        [
          [2, 'email', 'type', 'not-an-email'],
          [2, 'qty', 'min', '-1'],
          [2, 'born', 'type', '2025-02-31'],
          [2, 'country', 'enum', 'Spain'],
          [3, 'qty', 'type', '1.5'],
          [3, 'email', 'unique', 'a@x.io'],
        ],
      );
      assert.match(error.errors[0].message, /e-mail/);
      assert.equal(await importsOf(id), 0);
    }
    assert.deepEqual(await h.sql('SELECT count(*) AS n FROM import_rows'), [{ n: 0 }]);
  });

  it('reject: reports the first 100 cells and counts them all', async () => {
    await template('strict-many', { onInvalid: 'reject' });
    const rows = Array.from({ length: 300 }, (_, i) => ({ email: `p${i}@x.io`, qty: 'many' }));
    const response = await post({ meta: { schemaKey: 'strict-many' }, rows });
    assert.equal(response.status, 422);
    const { error } = await json(response);
    assert.equal(error.errors.length, 100);
    assert.equal(error.errorCount, 300);
    assert.equal(error.errors[99].rowIndex, 99);
  });

  it('keep (the default): every row stored transformed, the server’s counts in meta, the client’s as meta.clientCounts', async () => {
    await template('kept', {});
    const response = await post({ meta: { schemaKey: 'kept', counts: { totalRows: 4, erroredRows: 0 } }, rows: [...GOOD, ...BAD] });
    assert.equal(response.status, 201, await response.clone().text());
    const created = await json(response);
    assert.equal(created.rowCount, 4);
    assert.deepEqual(created.meta.counts, { totalRows: 4, validRows: 2, erroredRows: 2, discardedRows: 0 });
    assert.deepEqual(created.meta.clientCounts, { totalRows: 4, erroredRows: 0 });
    const rows = await storedRows(created.id);
    assert.deepEqual(rows.slice(0, 2), [
      { email: 'a@x.io', qty: 3, born: '2025-04-03', country: 'CI', zip: '00123' },
      { email: 'b@x.io', qty: 0, born: '2025-03-04', country: 'FR', zip: '02139', extra: 'kept' },
    ]);
    assert.deepEqual(rows[2], BAD[0], 'an invalid cell is stored as sent');
    const detail = await json(await call(h, 'GET', `/v1/imports/${created.id}`, { key: env.secretKey }));
    // As sent, `born` held a date text and a number (mixed); as stored, three ISO dates.
    const born = detail.cellStats.fieldBreakdown.find((f: any) => f.key === 'born');
    assert.deepEqual(born, { key: 'born', type: 'date', count: 3 }, 'statistics of the stored values');
  });

  it('the import.completed event carries the server’s counts', async () => {
    await template('hooked', { onInvalid: 'discard' });
    const hook = await call(h, 'POST', '/v1/webhooks', { key: env.secretKey, body: { url: 'https://hooks.example.com/x', events: ['import.completed'] } });
    assert.equal(hook.status, 201, await hook.clone().text());
    const created = await json(await post({ meta: { schemaKey: 'hooked' }, rows: [...GOOD, ...BAD] }));
    const [event] = await h.sql<{ payload: string }>('SELECT payload FROM webhook_events WHERE import_id = ?', created.id);
    assert.deepEqual(JSON.parse(event!.payload).data.meta.counts, { totalRows: 4, validRows: 2, erroredRows: 2, discardedRows: 2 });
  });

  it('discard: invalid rows are not stored, and counted', async () => {
    await template('filtered', { onInvalid: 'discard', extraColumns: 'drop' });
    const response = await postNdjson([{ meta: { schemaKey: 'filtered' } }, ...GOOD, ...BAD, { email: 'c@x.io' }]);
    assert.equal(response.status, 201, await response.clone().text());
    const created = await json(response);
    assert.equal(created.rowCount, 3);
    assert.deepEqual(created.meta.counts, { totalRows: 5, validRows: 3, erroredRows: 2, discardedRows: 2 });
    assert.equal(created.meta.clientCounts, undefined);
    const rows = await storedRows(created.id);
    assert.deepEqual(rows.map((row) => row.email), ['a@x.io', 'b@x.io', 'c@x.io']);
    assert.equal(rows[1].extra, undefined, 'extraColumns drop');
    const detail = await json(await call(h, 'GET', `/v1/imports/${created.id}`, { key: env.secretKey }));
    assert.equal(detail.cellStats.rowCount, 3);
  });

  it('a large JSON body (parsed by the worker) is checked as well', async () => {
    const { id } = await template('strict-large', { onInvalid: 'reject' });
    const rows = Array.from({ length: 60_000 }, (_, i) => ({ email: `person-${i}@example.com`, qty: String(i), zip: `${'0'.repeat(40)}${i}` }));
    rows[59_999]!.qty = 'x';
    const response = await post({ meta: { schemaKey: 'strict-large' }, rows });
    assert.equal(response.status, 422);
    const { error } = await json(response);
    assert.deepEqual(error.errors.map((e: any) => [e.rowIndex, e.key]), [[59_999, 'qty']]);
    assert.equal(await importsOf(id), 0);
  });

  it('a free-form template is not checked, and gets no counts unless the client sent some', async () => {
    const plain = await json(await post({ meta: { schemaKey: 'free' }, rows: BAD }));
    assert.equal(plain.rowCount, 2);
    assert.deepEqual(plain.meta, { schemaKey: 'free' });
    const counted = await json(await post({ meta: { schemaKey: 'free', counts: { totalRows: 9 } }, rows: BAD }));
    assert.deepEqual(counted.meta, { schemaKey: 'free', clientCounts: { totalRows: 9 }, counts: { totalRows: 2, validRows: 2, erroredRows: 0, discardedRows: 0 } });
  });

  it('importd import: a refused file prints the cells and exits 2; a kept one stores transformed rows', async () => {
    const importd = cliOnHarness(h);
    await template('cli-strict', { onInvalid: 'reject' });
    await template('cli-kept', {});
    const file = path.join(tmpdir(), `rules-${process.pid}.csv`);
    writeFileSync(file, 'email,qty,born\r\nA@X.IO,3,03/04/2025\r\nbad,x,\r\n');
    const refused = await importd('import', file, '--env', env.name, '--template', 'cli-strict');
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /validation_failed.*2 invalid cells/);
    assert.match(refused.stderr, /rows\.1\.email: type: email must be an e-mail address/);
    assert.match(refused.stderr, /rows\.1\.qty: type/);
    const kept = await importd('import', file, '--env', env.name, '--template', 'cli-kept', '--json');
    assert.equal(kept.code, 0, kept.stderr);
    const created = JSON.parse(kept.stdout);
    assert.deepEqual(created.meta.counts, { totalRows: 2, validRows: 1, erroredRows: 1, discardedRows: 0 });
    assert.deepEqual((await storedRows(created.id))[0], { email: 'a@x.io', qty: 3, born: '2025-04-03' });
  });
});
