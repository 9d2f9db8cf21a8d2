import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { runBin } from '../helpers/process';
import { binDatabases, sqlOn, testEngine } from '../helpers/test-database';

const dir = mkdtempSync(path.join(tmpdir(), 'importd-downgrade-'));
const databases = binDatabases(dir);
after(async () => {
  await databases.drop();
  rmSync(dir, { recursive: true, force: true });
});

const MIGRATIONS = testEngine === 'postgres' ? 'drizzle.__drizzle_migrations' : '__drizzle_migrations';

describe('a database migrated by a newer importd', () => {
  it('is refused by serve and by every command that opens it (exit 2, invalid_config, both versions named)', async () => {
    const db = await databases.create('newer.db');
    assert.equal(runBin(['migrate', '--db', db]).code, 0);
    // What a newer importd's migration leaves: one more row, later than every migration this build carries.
    await sqlOn(db, `INSERT INTO ${MIGRATIONS} (hash, created_at) VALUES (?, ?)`, 'from-a-newer-importd', Date.parse('2099-01-01T00:00:00Z'));
    for (const args of [['serve', '--port', '0'], ['imports', 'list'], ['migrate']]) {
      const result = runBin([...args, '--db', db]);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /^error \[invalid_config\]: invalid setting IMPORTD_DB \(--db\): /);
      assert.match(result.stderr, /migrated by a newer importd: it has \d+ migrations, the newest of 2099-01-01T00:00:00\.000Z/);
      assert.match(result.stderr, /this importd \(\d+\.\d+\.\d+\) knows \d+, the newest \d{4}_\w+ of \d{4}-/);
    }
  });

  it('still opens a database of this build', async () => {
    const db = await databases.create('current.db');
    assert.equal(runBin(['migrate', '--db', db]).code, 0);
    assert.equal(runBin(['imports', 'list', '--db', db]).code, 0);
  });
});
