import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { cleanAbandonedImports } from '../../src/services/imports/clean-abandoned';
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

// The full disk of a process with no reserve left to release (`importd imports delete` after the server took it):
// a disk whose only room is what the WAL's file holds. Deleting rows writes WAL frames, which the WAL takes at
// its end unless it can start over; simulated on the connection by a trigger that fails deleting rows with
// SQLITE_FULL while the WAL's file holds any byte.
describe('a deletion on a full disk with no reserve to release (simulated SQLITE_FULL)', sqliteOnly, () => {
  let h: Harness;
  let env: TestEnvironment;
  let wal: string;
  before(async () => {
    h = await createHarness();
    env = await createTestEnvironment(h);
    wal = `${h.dbPath}-wal`;
    h.storage.sqlite.function('room_for_rows', () => {
      if (statSync(wal).size > 0) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      return 0;
    });
    h.storage.sqlite.exec('CREATE TEMP TRIGGER full_disk BEFORE DELETE ON main.import_rows BEGIN SELECT room_for_rows(); END');
  });
  after(async () => await h.close());

  const stored = async () => {
    const created = await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: 'full' }, rows: [{ a: 1 }, { a: 2 }] } });
    assert.equal(created.status, 201);
    return (await json<{ id: string }>(created)).id;
  };
  const rowsOf = async (id: string) => await h.sql('SELECT count(*) AS n FROM import_rows WHERE import_id = ?', id);

  it('copies the WAL into the database file, empties it and deletes', async () => {
    const id = await stored();
    assert.equal(existsSync(`${h.dbPath}-reserve`), false, 'the harness keeps no reserve, as a CLI command');
    assert.ok(statSync(wal).size > 0);
    assert.equal((await call(h, 'DELETE', `/v1/imports/${id}`, { key: env.secretKey })).status, 200);
    assert.deepEqual(await rowsOf(id), [{ n: 0 }]);
  });

  it('answers 507 while a reader keeps the WAL from being emptied; the clean-up removes the rest later', async () => {
    const id = await stored();
    const reader = new Database(h.dbPath, { readonly: true });
    // A reader of the WAL's last pages: the checkpoint copies them but cannot start the WAL over, and gives
    // up after busy_timeout (0 here: the test does not wait the 5 s of a served connection).
    reader.prepare('BEGIN').run();
    reader.prepare('SELECT count(*) FROM imports').get();
    const served = h.storage.sqlite.pragma('busy_timeout', { simple: true }) as number;
    h.storage.sqlite.pragma('busy_timeout = 0');
    try {
      const refused = await call(h, 'DELETE', `/v1/imports/${id}`, { key: env.secretKey });
      assert.equal(refused.status, 507);
      assert.equal((await json(refused)).error.code, 'insufficient_storage');
      assert.deepEqual(await rowsOf(id), [{ n: 2 }]);
    } finally {
      reader.close();
      h.storage.sqlite.pragma(`busy_timeout = ${served}`);
    }
    // Hidden already (never listed again): its rows go with the next clean-up of abandoned imports.
    assert.equal((await call(h, 'GET', `/v1/imports/${id}`, { key: env.secretKey })).status, 404);
    assert.equal(await cleanAbandonedImports(h.ctx), 1);
    assert.deepEqual(await rowsOf(id), [{ n: 0 }]);
  });
});
