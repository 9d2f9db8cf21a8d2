import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { cliOnHarness } from '../helpers/cli';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

describe('keyed templates: dry runs (HTTP and CLI)', () => {
  const { h, env } = useHarness({ config: { IMPORTD_MAX_IMPORT_BYTES: '2kb' } });
  const post = (body: Record<string, unknown>) => call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: 'stock' }, ...body } });
  const stored = async () => (await h.sql('SELECT count(*) AS n FROM imports'))[0]!.n;

  it('answers the changes against the dataset and the changed rows, storing nothing', async () => {
    await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { key: 'stock', schema: { fields: [{ key: 'sku' }, { key: 'qty', type: 'integer' }], primaryKey: 'sku' } } });
    assert.equal((await post({ rows: [{ sku: 'A', qty: 1 }, { sku: 'B', qty: 2 }, { sku: 'C', qty: 3 }] })).status, 201);
    const before = await stored();
    const records = await h.sql('SELECT key, record FROM dataset_records ORDER BY key');
    const response = await post({ dryRun: true, mode: 'replace', rows: [{ sku: 'A', qty: '1' }, { sku: 'B', qty: 5 }, { sku: 'D', qty: 4 }] });
    assert.equal(response.status, 200, await response.clone().text());
    const answer = await json(response);
    assert.equal(answer.dryRun, true);
    assert.deepEqual(answer.changes, { inserted: 1, updated: 1, unchanged: 1, missing: 1, removed: 1 });
    assert.deepEqual(answer.rows, [
      { rowIndex: 1, change: 'updated', data: { sku: 'B', qty: 5 }, previous: { qty: 2 } },
      { rowIndex: 2, change: 'inserted', data: { sku: 'D', qty: 4 } },
    ]);
    assert.equal(await stored(), before);
    assert.deepEqual(await h.sql('SELECT key, record FROM dataset_records ORDER BY key'), records);
  });

  it('over the byte cap a dry run is refused as the import would be (413)', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ sku: `sku-${i}`, qty: i }));
    const lines = [{ meta: { schemaKey: 'stock' }, dryRun: true }, ...rows].map((line) => JSON.stringify(line)).join('\n');
    const response = await call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody: lines, contentType: 'application/x-ndjson' });
    assert.equal(response.status, 413);
    assert.equal((await json(response)).error.code, 'payload_too_large');
  });

  it('refuses a dryRun that is not a boolean', async () => {
    const response = await post({ dryRun: 'yes', rows: [{ sku: 'A', qty: 1 }] });
    assert.equal(response.status, 400);
    assert.equal((await json(response)).error.details[0].path, 'dryRun');
  });

  it('importd import FILE --dry-run prints the changes and stores nothing; --mode on an unkeyed template fails', async () => {
    const file = path.join(h.dir, 'stock.csv');
    writeFileSync(file, 'sku,qty\nA,9\nE,1\n');
    const before = await stored();
    const importd = cliOnHarness(h);
    const cli = await importd('import', file, '--env', env.name, '--template', 'stock', '--dry-run');
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, /dry run, nothing stored: 2 rows .*1 new, 1 changed, 0 unchanged, 2 missing, 0 removed/);
    assert.equal(await stored(), before);
    const real = await importd('import', file, '--env', env.name, '--template', 'stock', '--mode', 'replace', '--json');
    assert.equal(real.code, 0, real.stderr);
    assert.deepEqual(JSON.parse(real.stdout).changes, { inserted: 1, updated: 1, unchanged: 0, missing: 2, removed: 2 });
    const free = await importd('import', file, '--env', env.name, '--template', 'free', '--mode', 'replace');
    assert.notEqual(free.code, 0);
    assert.match(free.stderr, /validation_failed|mode/);
  });
});
