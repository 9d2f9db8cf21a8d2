import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashKey } from '../../src/core/keys';
import { openChangeStamp } from '../../src/db/sqlite/change-stamp';
import { createImportStores } from '../../src/db/sqlite/import-store';
import { createReadCache } from '../../src/db/sqlite/read-cache';
import { createLogger } from '../../src/core/logger';
import { createApp } from '../../src/http/app';
import { withFastLane } from '../../src/http/fast-lane';
import { startServer, type RunningServer } from '../../src/http/server';
import { createHarness, createTestEnvironment, type Harness, type TestEnvironment } from '../helpers/harness';
import { runBinAsync } from '../helpers/process';
import { sqliteOnly } from '../helpers/test-database';
import { contactRows, createImportOk } from '../imports/helpers';

// On SQLite the store keeps the hottest reads (a Secret Key with its import, a rows page) until the database
// changes (src/db/sqlite/read-cache.ts). Through a real server, whose fast lane makes those reads: a change made
// anywhere, by the CLI in another process or through the API, is seen by the very next request. On PostgreSQL
// nothing is kept, and the same answers are expected.

describe('reads after a change: the next request sees it', () => {
  let h: Harness;
  let server: RunningServer;
  let url: string;

  before(async () => {
    h = await createHarness();
    const deps = { ctx: h.ctx, logger: createLogger('warn', () => undefined) };
    server = await startServer(createApp(deps).fetch, { ...h.ctx.config, host: '127.0.0.1', port: 0 }, deps.logger, (app) => withFastLane(deps, app));
    url = `http://127.0.0.1:${server.port}`;
  });
  after(async () => {
    await server?.close();
    await h?.close();
  });

  async function get(env: TestEnvironment, path: string): Promise<{ status: number; body: any }> {
    const response = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${env.secretKey}` } });
    return { status: response.status, body: await response.json() };
  }

  /** The detail and the rows page, each read twice (the second from memory on SQLite), both answered. */
  async function readTwice(env: TestEnvironment, importId: string): Promise<void> {
    for (let i = 0; i < 2; i++) {
      const detail = await get(env, `/v1/imports/${importId}`);
      assert.equal(detail.status, 200);
      assert.equal(detail.body.id, importId);
      const rows = await get(env, `/v1/imports/${importId}/rows?limit=100`);
      assert.equal(rows.status, 200);
      assert.equal(rows.body.data.length, 100);
    }
  }

  it('a key deleted by the CLI, in another process, is refused at the next read', async () => {
    const env = await createTestEnvironment(h, { name: 'cli-deleted' });
    const { id } = await createImportOk(h, env, { rows: contactRows(150) });
    await readTwice(env, id);
    const deleted = await runBinAsync(['env', 'delete', env.name, '--yes', '--db', h.dbPath]);
    assert.equal(deleted.code, 0, deleted.stderr);
    for (const path of [`/v1/imports/${id}`, `/v1/imports/${id}/rows?limit=100`]) {
      const refused = await get(env, path);
      assert.equal(refused.status, 401, path);
      assert.equal(refused.body.error.code, 'invalid_api_key');
    }
  });

  it('an import deleted through the API is gone at the next read', async () => {
    const env = await createTestEnvironment(h, { name: 'api-deleted' });
    const { id } = await createImportOk(h, env, { rows: contactRows(150) });
    await readTwice(env, id);
    const deleted = await fetch(`${url}/v1/imports/${id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${env.secretKey}` } });
    assert.equal(deleted.status, 200);
    for (const path of [`/v1/imports/${id}`, `/v1/imports/${id}/rows?limit=100`]) {
      const gone = await get(env, path);
      assert.equal(gone.status, 404, path);
      assert.equal(gone.body.error.code, 'not_found');
    }
  });

  it('on SQLite, a repeated read is answered from memory until a commit', sqliteOnly, async () => {
    const env = await createTestEnvironment(h, { name: 'kept' });
    const { id } = await createImportOk(h, env, { rows: contactRows(3) });
    const hash = hashKey(env.secretKey);
    const { imports, rows } = h.ctx.store;
    const view = await imports.findViewWithKey(hash, id);
    assert.equal(await imports.findViewWithKey(hash, id), view);
    const page = await rows.jsonPage(id, -1, 100, 1 << 20);
    assert.equal(await rows.jsonPage(id, -1, 100, 1 << 20), page);
    await h.sql("INSERT INTO settings (key, value) VALUES ('read-cache-test', 'x')");
    assert.notEqual(await imports.findViewWithKey(hash, id), view);
    assert.deepEqual(await imports.findViewWithKey(hash, id), view);
    assert.notEqual(await rows.jsonPage(id, -1, 100, 1 << 20), page);
  });

  it('on SQLite, a detail read counts its meta and cell statistics against the cache bytes', sqliteOnly, async () => {
    const env = await createTestEnvironment(h, { name: 'sized' });
    const small = (await createImportOk(h, env, { rows: contactRows(2) })).id;
    const large = (await createImportOk(h, env, { rows: contactRows(2), meta: { schemaKey: 'contacts', note: 'x'.repeat(60_000) } })).id;
    const stamp = openChangeStamp(h.dbPath)!;
    // Values over a sixteenth of the bytes are not kept: 60 000 bytes here.
    const { imports } = createImportStores(h.storage.db, h.storage.sqlite, createReadCache(stamp.stamp, { entries: 100, bytes: 16 * 60_000 }));
    const hash = hashKey(env.secretKey);
    const smallView = await imports.findViewWithKey(hash, small);
    assert.equal(await imports.findViewWithKey(hash, small), smallView, 'a small import is kept');
    const largeView = await imports.findViewWithKey(hash, large);
    assert.ok(largeView?.view);
    assert.notEqual(await imports.findViewWithKey(hash, large), largeView, 'a 60 KB meta is not');
    stamp.release();
  });
});
