import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, createHarness, createTestEnvironment, json, type Harness, type TestEnvironment } from '../helpers/harness';
import { sqliteOnly } from '../helpers/test-database';

// A full disk simulated on the connection (PRAGMA max_page_count: SQLite then fails a write that needs a new
// page with SQLITE_FULL, as on a full disk). The real disk: test/slow/disk-full.test.ts, where a tmpfs can be mounted.
describe('a database with no room left (simulated SQLITE_FULL)', sqliteOnly, () => {
  let h: Harness;
  let env: TestEnvironment;
  before(async () => {
    h = await createHarness();
    env = await createTestEnvironment(h);
  });
  after(async () => await h.close());

  const rows = (count: number) => Array.from({ length: count }, (_, i) => ({ i, pad: 'x'.repeat(200) }));
  const post = (count: number) => call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: 'full' }, rows: rows(count) } });
  const pages = () => h.storage.sqlite.pragma('page_count', { simple: true }) as number;

  it('answers 507, says so on /readyz, still deletes, and recovers without a restart', async () => {
    const kept = await post(500);
    assert.equal(kept.status, 201);
    const { id } = await json<{ id: string }>(kept);
    h.storage.sqlite.pragma(`max_page_count = ${pages() + 5}`);

    const refused = await post(5_000);
    assert.equal(refused.status, 507);
    const body = await json(refused);
    assert.equal(body.error.code, 'insufficient_storage');
    assert.match(body.error.requestId, /^req_/);
    const ready = await call(h, 'GET', '/readyz');
    assert.equal(ready.status, 503);
    assert.match((await json(ready)).error.message, /no space left/);
    // The refused import left nothing behind: its rows went with it.
    assert.deepEqual(await h.sql('SELECT id FROM imports WHERE id <> ?', id), []);
    assert.deepEqual(await h.sql('SELECT count(*) AS n FROM import_rows WHERE import_id <> ?', id), [{ n: 0 }]);

    // Deleting needs no new page: an operator frees space on a full database.
    assert.equal((await call(h, 'DELETE', `/v1/imports/${id}`, { key: env.secretKey })).status, 200);
    assert.deepEqual(await h.sql('SELECT count(*) AS n FROM import_rows'), [{ n: 0 }]);

    h.storage.sqlite.pragma('max_page_count = 1073741823');
    assert.equal((await call(h, 'GET', '/readyz')).status, 200);
    assert.equal((await post(5_000)).status, 201);
  });
});
