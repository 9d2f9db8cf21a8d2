import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { folderMigrationSource, migrationFiles } from '../../src/db/sqlite/migrations';
import { migrate, openDatabase } from '../../src/db/sqlite/open-database';

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

  it('open the database with WAL, foreign keys, busy timeout and synchronous=NORMAL', () => {
    const storage = openDatabase(path.join(dir, 'pragmas.db'));
    assert.equal(storage.sqlite.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(storage.sqlite.pragma('foreign_keys', { simple: true }), 1);
    assert.equal(storage.sqlite.pragma('busy_timeout', { simple: true }), 5000);
    assert.equal(storage.sqlite.pragma('synchronous', { simple: true }), 1);
    storage.close();
  });
});
