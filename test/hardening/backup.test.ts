import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createBackup } from '../../src/services/backup';
import { ServiceError } from '../../src/services/errors';
import { runBinAsync, startServe, type ServerProcess } from '../helpers/process';
import { call, createHarness, createTestEnvironment, type Harness, type TestEnvironment } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { insertImport } from '../helpers/imports-fixture';
import { postgresOnly, sqliteOnly } from '../helpers/test-database';

const TABLES = ['accounts', 'environments', 'api_keys', 'templates', 'imports', 'import_rows', 'themes', 'sessions', 'settings'];

/** Every row of every table, in a stable order. */
function contents(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(TABLES.map((table) => [table, db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all()]));
  } finally {
    db.close();
  }
}

function integrity(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

describe('createBackup', sqliteOnly, () => {
  const { h, env } = useHarness();
  before(async () => {
    await insertImport(h, env, { rows: 50 });
  });

  it('writes a self-contained copy equal to the database', async () => {
    const file = path.join(h.dir, 'copy.db');
    const result = await createBackup(h.ctx, { file });
    assert.equal(result.file, file);
    assert.ok(result.pages > 0 && result.bytes === result.pages * 4096);
    assert.equal(integrity(file), 'ok');
    assert.deepEqual(contents(file), contents(h.dbPath));
    assert.deepEqual(readdirSync(h.dir).filter((name) => name.startsWith('copy.db')), ['copy.db'], 'no -wal, -shm or partial file left');
  });

  it('refuses to overwrite an existing file unless forced', async () => {
    const file = path.join(h.dir, 'existing.db');
    writeFileSync(file, 'precious');
    await assert.rejects(createBackup(h.ctx, { file }), (e: ServiceError) => e.code === 'conflict');
    assert.equal(readFileSync(file, 'utf8'), 'precious');
    await createBackup(h.ctx, { file, force: true });
    assert.equal(integrity(file), 'ok');
  });

  it('refuses the database itself, a missing folder and an empty name', async () => {
    for (const file of [h.dbPath, path.join(h.dir, 'no-such-folder', 'x.db'), ' ']) {
      await assert.rejects(createBackup(h.ctx, { file }), (e: ServiceError) => e.code === 'validation_failed', file);
    }
    assert.equal(existsSync(path.join(h.dir, 'no-such-folder')), false);
  });
});

describe('importd backup while importd serve is writing', sqliteOnly, () => {
  let h: Harness;
  let env: TestEnvironment;
  let server: ServerProcess;
  before(async () => {
    h = await createHarness({ config: { IMPORTD_RATE_LIMIT: '0' } });
    env = await createTestEnvironment(h);
    // The writer creates an environment a request, as many as the machine allows in the time.
    server = await startServe(h.dbPath, { IMPORTD_RATE_LIMIT: '0', IMPORTD_MAX_ENVIRONMENTS_PER_ACCOUNT: '100000' });
  });
  after(async () => {
    await server.stop();
    h.close();
  });

  it('makes a consistent copy under concurrent writes, restorable and equal to the source once writes stop', async () => {
    let writing = true;
    let written = 0;
    // Two writers: the server (an environment and its two keys per transaction, a session per request)
    // and this process's own service (an import: its rows in slices, then the statement completing it).
    const httpWriter = (async () => {
      for (let i = 0; writing; i++) {
        const auth = { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': 'application/json' };
        const created = await fetch(`${server.url}/v1/environments`, { method: 'POST', headers: auth, body: JSON.stringify({ name: `env-${i}`, allowedOrigins: [] }) });
        assert.equal(created.status, 201, await created.clone().text());
        const session = await fetch(`${server.url}/v1/sessions`, { method: 'POST', headers: auth, body: JSON.stringify({ endUserId: `user-${i}` }) });
        assert.equal(session.status, 201);
        written++;
      }
    })();
    const importWriter = (async () => {
      while (writing) {
        // Through the service: an import becomes visible with all its rows or not at all (the fixture's
        // insertImport writes the import and its rows in separate statements).
        const rows = Array.from({ length: 200 }, (_, n) => ({ n }));
        const created = await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: 'backup' }, rows } });
        assert.equal(created.status, 201);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    const file = path.join(h.dir, 'live.db');
    let backup;
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      backup = await runBinAsync(['backup', file, '--db', h.dbPath, '--json']);
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      writing = false;
      await Promise.all([httpWriter, importWriter]);
    }
    assert.equal(backup.code, 0, backup.stderr);
    assert.equal(JSON.parse(backup.stdout).file, file);
    assert.ok(written > 5, `only ${written} writes`);

    assert.equal(integrity(file), 'ok');
    const copy = contents(file);
    const source = contents(h.dbPath);
    // A point in time: every row of the copy is in the source as is, and no transaction is half there. An
    // import still being written in the copy has completed in the source since (its status, lease and count
    // changed): only complete imports are compared.
    const settled = (table: string, row: any) => table !== 'imports' || row.status === 'complete';
    for (const table of TABLES) {
      const rows = new Set(source[table]!.map((row) => JSON.stringify(row)));
      for (const row of copy[table]!.filter((r) => settled(table, r))) assert.ok(rows.has(JSON.stringify(row)), `${table} row not in the source`);
    }
    const keysOf = (id: unknown) => copy.api_keys!.filter((k: any) => k.environment_id === id).length;
    for (const environment of copy.environments as { id: string }[]) assert.equal(keysOf(environment.id), 2, 'environment without its keys');
    // An import still being written (its rows come in slices before it completes) is never visible: skip it.
    for (const row of (copy.imports as { id: string; status: string; row_count: number }[]).filter((i) => i.status === 'complete')) {
      assert.equal(copy.import_rows!.filter((r: any) => r.import_id === row.id).length, row.row_count, 'import without all its rows');
    }
    assert.ok(copy.environments!.length > 1 && copy.imports!.length > 0, 'the copy holds the writes made before it');
    assert.ok(source.sessions!.length > copy.sessions!.length, 'writes went on during and after the backup');

    // Once writes stop, a forced second backup equals the source; restored, it serves the same data.
    const second = await runBinAsync(['backup', file, '--db', h.dbPath]);
    assert.equal(second.code, 4, 'refuses to overwrite without --force');
    assert.match(second.stderr, /error \[conflict\]: .*--force/);
    const forced = await runBinAsync(['backup', file, '--db', h.dbPath, '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stdout, /^backup written to .*live\.db \(\d+ bytes, \d+ pages, \d+ ms\)\nuploaded files are not in it: copy .*files as well\n$/);
    assert.deepEqual(contents(file), contents(h.dbPath));

    const restoredPath = path.join(h.dir, 'restored.db');
    copyFileSync(file, restoredPath);
    const restored = await startServe(restoredPath);
    try {
      // lastUsedAt moves with this very request, so compare what it cannot change.
      const list = async (url: string) => {
        const body = (await (await fetch(`${url}/v1/environments`, { headers: { Authorization: `Bearer ${env.secretKey}` } })).json()) as { data: any[] };
        return body.data.map((e) => [e.name, e.createdAt, e.secretKey.id, e.publicKey.id, e.publicKey.allowedOrigins]);
      };
      assert.deepEqual(await list(restored.url), await list(server.url));
    } finally {
      await restored.stop();
    }
  });
});

describe('importd backup on PostgreSQL', postgresOnly, () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(() => h.close());

  it('answers validation_failed naming pg_dump, and writes no file', async () => {
    const file = path.join(h.dir, 'copy.db');
    await assert.rejects(createBackup(h.ctx, { file }), (error: unknown) => {
      assert.ok(error instanceof ServiceError);
      assert.equal(error.code, 'validation_failed');
      assert.match(error.message, /PostgreSQL: back it up with pg_dump/);
      return true;
    });
    const cli = await runBinAsync(['backup', file, '--db', h.dbPath]);
    assert.equal(cli.code, 2, cli.stderr);
    assert.match(cli.stderr, /^error \[validation_failed\]: .*pg_dump/);
    // The folder holds the node's files folder (IMPORTD_FILES_DIR, checked at start), and no copy.
    assert.deepEqual(readdirSync(h.dir).filter((name) => name !== 'files'), []);
  });
});
