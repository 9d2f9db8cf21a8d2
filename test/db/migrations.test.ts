import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { folderMigrationSource, migrationFiles } from '../../src/db/sqlite/migrations';
import { migrate, openDatabase } from '../../src/db/sqlite/open-database';
import { COUNTS_AFTER, IMPORTS_BEFORE_COUNTS, migrationsBefore } from '../helpers/migrations-before';

const dir = mkdtempSync(path.join(tmpdir(), 'importd-migrate-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const tables = (file: string) => {
  const storage = openDatabase(file);
  try {
    return storage.sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' ORDER BY name")
      .pluck()
      .all() as string[];
  } finally {
    storage.close();
  }
};

describe('migrations', () => {
  it('apply from zero on an empty database, creating the folder', () => {
    const file = path.join(dir, 'nested', 'folder', 'importd.db');
    assert.deepEqual(tables(file), ['accounts', 'api_keys', 'environments', 'import_counts', 'import_rows', 'imports', 'learned_mappings', 'locks', 'sessions', 'settings', 'templates', 'themes', 'webhook_deliveries', 'webhook_endpoints', 'webhook_events']);
  });

  it('apply twice without harm and record each migration once', () => {
    const file = path.join(dir, 'twice.db');
    const storage = openDatabase(file);
    storage.sqlite.prepare("INSERT INTO settings (key, value) VALUES ('probe', 'kept')").run();
    migrate(storage.db, folderMigrationSource());
    storage.close();
    const again = openDatabase(file);
    const applied = again.sqlite.prepare('SELECT count(*) FROM __drizzle_migrations').pluck().get();
    assert.equal(applied, migrationFiles(folderMigrationSource()).length - 1);
    assert.equal(again.sqlite.prepare("SELECT value FROM settings WHERE key = 'probe'").pluck().get(), 'kept');
    again.close();
  });

  it('fill the import counters from the imports already stored, then keep them', () => {
    const file = path.join(dir, 'counts.db');
    const old = openDatabase(file, { migrations: migrationsBefore(folderMigrationSource(), 'import_counts') });
    for (const statement of IMPORTS_BEFORE_COUNTS) old.sqlite.exec(statement);
    old.close();
    const storage = openDatabase(file);
    try {
      const counts = () => storage.sqlite.prepare('SELECT account_id, complete FROM import_counts ORDER BY account_id').all();
      assert.deepEqual(counts(), COUNTS_AFTER);
      storage.sqlite.exec("UPDATE imports SET status = 'complete' WHERE id = 'a4'");
      assert.deepEqual(counts(), [{ account_id: 'a', complete: 4 }, COUNTS_AFTER[1]]);
    } finally {
      storage.close();
    }
  });

  it('open the database with WAL, foreign keys, busy timeout and synchronous=NORMAL', () => {
    const storage = openDatabase(path.join(dir, 'pragmas.db'));
    assert.equal(storage.sqlite.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(storage.sqlite.pragma('foreign_keys', { simple: true }), 1);
    assert.equal(storage.sqlite.pragma('busy_timeout', { simple: true }), 5000);
    assert.equal(storage.sqlite.pragma('synchronous', { simple: true }), 1);
    storage.close();
  });
});
