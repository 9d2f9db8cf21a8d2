import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { waitFor } from '../helpers/live-server';
import { runBin, runBinAsync, startServe, type ServerProcess } from '../helpers/process';
import { sqliteOnly } from '../helpers/test-database';

const dir = mkdtempSync(path.join(tmpdir(), 'importd-full-'));
/** A 24 MB tmpfs: room for the database, its reserve (8 MiB) and a few imports. Root only, and not in every container. */
// Mounted only where the suite runs (a skipped suite's `after` would never unmount it).
const mounted = sqliteOnly.skip === false && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=24m,mode=0700', 'tmpfs', dir]).status === 0;
/** The tmpfs's free bytes and the sizes of the database's files: what explains a failure on this disk. */
function space(db: string): string {
  const disk = statfsSync(dir);
  const size = (file: string) => (existsSync(file) ? statSync(file).size : 'none');
  return `free ${disk.bavail * disk.bsize}, db ${size(db)}, wal ${size(`${db}-wal`)}, shm ${size(`${db}-shm`)}, reserve ${size(`${db}-reserve`)}`;
}
const skip = mounted ? sqliteOnly.skip : 'cannot mount a tmpfs here (test/hardening/disk-full.test.ts simulates a full disk instead)';

// The full disk of an operator's bad day, on a real file system and real processes (SQLite: PostgreSQL's
// server owns its disk).
describe('serve on a full disk', { skip }, () => {
  let server: ServerProcess | undefined;
  after(async () => {
    await server?.stop();
    if (mounted) spawnSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 507, says so on /readyz, deletes through the API and the CLI, and recovers without a restart', async () => {
    const db = path.join(dir, 'importd.db');
    assert.equal(runBin(['migrate', '--db', db]).code, 0);
    const created = runBin(['env', 'create', 'full', '--json', '--db', db]);
    const secretKey = (JSON.parse(created.stdout) as { secretKey: { key: string } }).secretKey.key;
    server = await startServe(db, { IMPORTD_RATE_LIMIT: '0' });
    assert.ok(existsSync(`${db}-reserve`), 'serve keeps a reserve for deletions');
    const headers = { Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/json' };
    const post = (count: number) =>
      fetch(`${server!.url}/v1/imports`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ meta: { schemaKey: 'full' }, rows: Array.from({ length: count }, (_, i) => ({ i, pad: 'x'.repeat(1000) })) }),
      });

    const stored: string[] = [];
    let refused: Response | undefined;
    for (let attempt = 0; attempt < 20 && !refused; attempt++) {
      const response = await post(3_000);
      if (response.status === 201) stored.push(((await response.json()) as { id: string }).id);
      else refused = response;
    }
    assert.ok(stored.length >= 2, `only ${stored.length} imports fitted`);
    assert.equal(refused?.status, 507);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'insufficient_storage');

    const deleted = await fetch(`${server.url}/v1/imports/${stored[0]}`, { method: 'DELETE', headers });
    assert.equal(deleted.status, 200);
    // The server released the reserve: the CLI's deletion finds none, and must empty the WAL if it needs room.
    const before = space(db);
    const cli = await runBinAsync(['imports', 'delete', stored[1]!, '--db', db]);
    assert.equal(cli.code, 0, `${cli.stderr}before the CLI: ${before}; after: ${space(db)}`);

    // The space freed by the deletions is used again: imports are taken, and readiness says so.
    assert.equal((await post(1_000)).status, 201);
    await waitFor(async () => (await fetch(`${server!.url}/readyz`)).status === 200, 10_000);
    assert.equal(server.child.exitCode, null);
  });
});
