import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createHarness, createTestEnvironment, type Harness, type TestEnvironment } from '../helpers/harness';
import { waitFor } from '../helpers/live-server';
import { startServe, type ServerProcess } from '../helpers/process';
import { sqliteOnly } from '../helpers/test-database';

const LARGE_ROWS = 300_000;

const rowsOf = (tag: string, count: number) => Array.from({ length: count }, (_, i) => ({ tag, index: i, name: `row ${i} of ${tag}`, ok: i % 2 === 0 }));

// About SQLite's file (read beside the server while it writes); PostgreSQL's counterpart is in
// test/nodes/multi-node.test.ts (SIGKILL of a node mid-import).
describe('crash safety: SIGKILL in the middle of a large import', sqliteOnly, () => {
  let h: Harness;
  let env: TestEnvironment;
  let server: ServerProcess;
  before(async () => {
    h = await createHarness();
    env = await createTestEnvironment(h);
    // The harness keeps its own connection open only to set up; the server processes own the file afterwards.
    h.storage.close();
  });
  after(async () => {
    await server?.stop();
    h.close();
  });

  const post = (url: string, rows: unknown[]) =>
    fetch(`${url}/v1/imports`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ rows, meta: { schemaKey: 'crash' }, originalSchema: { key: 'crash' } }),
    });

  const allRows = async (url: string, id: string) => {
    const response = await fetch(`${url}/v1/imports/${id}/export?format=ndjson`, { headers: { Authorization: `Bearer ${env.secretKey}` } });
    assert.equal(response.status, 200);
    return (await response.text()).trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
  };

  it('leaves the database sound, the interrupted import absent and the earlier ones intact', async () => {
    // A short lease: the restarted node removes the killed one's import once that lease has run out.
    const settings = { IMPORTD_RATE_LIMIT: '0', IMPORTD_LEASE_SECONDS: '3' };
    server = await startServe(h.dbPath, settings);
    const earlier: { id: string; rows: unknown[] }[] = [];
    for (const tag of ['a', 'b', 'c']) {
      const rows = rowsOf(tag, 50);
      const response = await post(server.url, rows);
      assert.equal(response.status, 201);
      earlier.push({ id: ((await response.json()) as { id: string }).id, rows });
    }

    const reader = new Database(h.dbPath, { readonly: true });
    const progress = reader.prepare(
      "SELECT i.id AS id, (SELECT count(*) FROM import_rows r WHERE r.import_id = i.id) AS stored FROM imports i WHERE i.status = 'writing'",
    );
    const large = post(server.url, rowsOf('large', LARGE_ROWS)).then(
      (response) => `answered ${response.status}`,
      () => 'connection lost',
    );
    let victim: { id: string; stored: number } | undefined;
    await waitFor(() => {
      const row = progress.get() as { id: string; stored: number } | undefined;
      if (row && row.stored >= 20_000) victim = row;
      return victim !== undefined;
    }, 60_000);
    await server.stop('SIGKILL');
    reader.close();
    assert.equal(await large, 'connection lost', 'the large import finished before the kill: nothing was tested');
    assert.ok(victim!.stored < LARGE_ROWS);

    server = await startServe(h.dbPath, settings);
    await waitFor(() => server.output().includes('removed imports left unfinished by a stopped node'), 30_000);
    const db = new Database(h.dbPath, { readonly: true });
    try {
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      assert.deepEqual(db.pragma('foreign_key_check'), []);
      assert.equal(db.prepare("SELECT count(*) FROM imports WHERE status = 'writing'").pluck().get(), 0);
      assert.equal(db.prepare('SELECT count(*) FROM imports WHERE id = ?').pluck().get(victim!.id), 0);
      assert.equal(db.prepare('SELECT count(*) FROM import_rows WHERE import_id = ?').pluck().get(victim!.id), 0, 'partial rows left');
      assert.equal(db.prepare('SELECT count(*) FROM import_rows').pluck().get(), 150);
    } finally {
      db.close();
    }
    const listed = (await (await fetch(`${server.url}/v1/imports?limit=100`, { headers: { Authorization: `Bearer ${env.secretKey}` } })).json()) as { data: { id: string }[] };
    assert.deepEqual(listed.data.map((i: { id: string }) => i.id).sort(), earlier.map((e) => e.id).sort());
    for (const { id, rows } of earlier) assert.deepEqual(await allRows(server.url, id), rows);
  });
});
