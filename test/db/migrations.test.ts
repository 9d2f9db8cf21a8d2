import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { folderMigrationSource, migrationFiles } from '../../src/db/sqlite/migrations';
import { migrate, openDatabase } from '../../src/db/sqlite/open-database';
import {
  CHANGES_AFTER_APPLIED,
  changesBeforeApplied,
  COUNTS_AFTER,
  DATASET_RECORDS_JOINED,
  IMPORT_CHANGES_JOINED,
  IMPORTS_BEFORE_COUNTS,
  migrationsBefore,
  RECORDS_AFTER_IDS,
  RECORDS_BEFORE_IDS,
} from '../helpers/migrations-before';

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
    assert.deepEqual(tables(file), ['accounts', 'api_keys', 'applied_imports', 'dataset_records', 'datasets', 'environments', 'import_changes', 'import_counts', 'import_missing', 'import_rows', 'import_schemas', 'imports', 'learned_mappings', 'locks', 'sessions', 'settings', 'templates', 'themes', 'uploads', 'webhook_deliveries', 'webhook_endpoints', 'webhook_events']);
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

  it("move the imports' original schemas to a table of their own and their statistics to the end of the row, every value, row, index and trigger kept", () => {
    const file = path.join(dir, 'import-schemas.db');
    const old = openDatabase(file, { migrations: migrationsBefore(folderMigrationSource(), 'import_schemas') });
    for (const statement of IMPORTS_BEFORE_COUNTS) old.sqlite.exec(statement);
    const schema = JSON.stringify({ fields: Array.from({ length: 3000 }, (_, i) => ({ key: `field_${i}` })) });
    old.sqlite.prepare("UPDATE imports SET original_schema = ?, cell_stats = '{\"a\":{\"filled\":1}}', end_user_id = 'u-' || id, row_count = 2 WHERE id IN ('a1', 'a4')").run(schema);
    old.sqlite.exec("INSERT INTO import_rows (import_id, row_index, data) VALUES ('a1', 0, '{}'), ('a1', 1, '{}'), ('a4', 0, '{}'), ('b1', 0, '{}')");
    const snapshot = (sqlite: typeof old.sqlite, imports: string) => ({
      imports: sqlite.prepare(`${imports} ORDER BY id`).all(),
      // The columns this migration knew (later ones, such as errors, are added NULL).
      rows: sqlite.prepare('SELECT import_id, row_index, data FROM import_rows ORDER BY import_id, row_index').all(),
      counts: sqlite.prepare('SELECT * FROM import_counts ORDER BY account_id').all(),
      schema: sqlite.prepare("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'imports' AND type IN ('index', 'trigger') ORDER BY name").all(),
    });
    const before = snapshot(old.sqlite, 'SELECT * FROM imports');
    old.close();
    // Up to this migration: account_quota adds a column after the statistics, which only triggers read.
    const storage = openDatabase(file, { migrations: migrationsBefore(folderMigrationSource(), 'account_quota') });
    try {
      const columns = storage.sqlite.prepare("SELECT name, type, \"notnull\", dflt_value FROM pragma_table_info('imports')").all() as { name: string }[];
      assert.deepEqual(columns.filter((column) => column.name !== 'error_summary').at(-1), { name: 'cell_stats', type: 'TEXT', notnull: 1, dflt_value: "'{}'" });
      assert.ok(!columns.some((column) => column.name === 'original_schema'));
      const joined = 'SELECT imports.*, s.original_schema FROM imports LEFT JOIN import_schemas s ON s.import_id = imports.id';
      const after = snapshot(storage.sqlite, joined);
      // A column a later migration adds (0016: error_summary, NULL for the imports stored before it).
      for (const row of after.imports as Record<string, unknown>[]) assert.equal(row.error_summary, null), delete row.error_summary;
      assert.deepEqual(after, before, 'the same values (object rows: column order aside), rows, counters, indexes and triggers');
      assert.equal(storage.sqlite.prepare('SELECT original_schema FROM import_schemas WHERE import_id = ?').pluck().get('a1'), schema);
      assert.equal(storage.sqlite.prepare('SELECT count(*) FROM import_schemas').pluck().get(), 6, 'one for every import, complete or not');
      assert.deepEqual(storage.sqlite.pragma('foreign_key_check'), []);
      assert.equal(storage.sqlite.pragma('integrity_check', { simple: true }), 'ok');
      storage.sqlite.exec("DELETE FROM imports WHERE id = 'a1'");
      assert.equal(storage.sqlite.prepare("SELECT count(*) FROM import_schemas WHERE import_id = 'a1'").pluck().get(), 0, 'removed with its import');
    } finally {
      storage.close();
    }
  });

  it("move the templates' schemas to the end of the row, every value and index kept", () => {
    const file = path.join(dir, 'templates-schema-last.db');
    const old = openDatabase(file, { migrations: migrationsBefore(folderMigrationSource(), 'templates_schema_last') });
    // The accounts and templates of IMPORTS_BEFORE_COUNTS (its imports are of an older layout).
    for (const statement of IMPORTS_BEFORE_COUNTS.slice(0, 2)) old.sqlite.exec(statement);
    const schema = JSON.stringify({ fields: Array.from({ length: 3000 }, (_, i) => ({ key: `field_${i}` })) });
    old.sqlite.prepare("UPDATE templates SET schema = ?, metadata = '{\"m\":1}', updated_at = '2026-02-01T00:00:00.000Z' WHERE id = 'ta'").run(schema);
    const rows = (sqlite: typeof old.sqlite) => sqlite.prepare('SELECT * FROM templates ORDER BY id').all();
    const indexes = (sqlite: typeof old.sqlite) => sqlite.prepare("SELECT name, sql FROM sqlite_master WHERE tbl_name = 'templates' AND type = 'index' ORDER BY name").all();
    const before = { rows: rows(old.sqlite), indexes: indexes(old.sqlite) };
    old.close();
    const storage = openDatabase(file);
    try {
      const columns = storage.sqlite.prepare("SELECT name, \"notnull\" FROM pragma_table_info('templates')").all();
      assert.deepEqual(columns.at(-1), { name: 'schema', notnull: 1 });
      assert.deepEqual({ rows: rows(storage.sqlite), indexes: indexes(storage.sqlite) }, before);
      assert.deepEqual(storage.sqlite.pragma('foreign_key_check'), []);
    } finally {
      storage.close();
    }
  });

  it('read every import stored before review as completed, and move the statistics and error summary after the review columns, values kept', () => {
    const file = path.join(dir, 'import-review.db');
    const old = openDatabase(file, { migrations: migrationsBefore(folderMigrationSource(), 'import_review') });
    for (const statement of IMPORTS_BEFORE_COUNTS.slice(0, 2)) old.sqlite.exec(statement);
    const stats = JSON.stringify({ totalCells: 1, rowCount: 1, fieldBreakdown: Array.from({ length: 2000 }, (_, i) => ({ key: `field_${i}`, type: 'string', count: 1 })) });
    const insert = old.sqlite.prepare(
      "INSERT INTO imports (id, account_id, template_id, status, meta, cell_stats, error_summary, bytes, created_at, updated_at) VALUES (?, ?, ?, ?, '{}', ?, ?, ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
    );
    insert.run('a1', 'a', 'ta', 'complete', stats, '{"errors":[]}', 10);
    insert.run('a2', 'a', 'ta', 'writing', '{}', null, 0);
    insert.run('b1', 'b', 'tb', 'complete', '{}', null, 5);
    const rows = (sqlite: typeof old.sqlite) => sqlite.prepare('SELECT id, status, cell_stats, error_summary, bytes FROM imports ORDER BY id').all();
    const before = { rows: rows(old.sqlite), counts: old.sqlite.prepare('SELECT * FROM import_counts ORDER BY account_id').all() };
    old.close();
    const storage = openDatabase(file);
    try {
      const columns = (storage.sqlite.prepare("SELECT name FROM pragma_table_info('imports')").pluck().all() as string[]).slice(-5);
      assert.deepEqual(columns, ['review_status', 'reviewed_at', 'review_reason', 'cell_stats', 'error_summary']);
      assert.deepEqual({ rows: rows(storage.sqlite), counts: storage.sqlite.prepare('SELECT * FROM import_counts ORDER BY account_id').all() }, before);
      assert.deepEqual(storage.sqlite.prepare('SELECT DISTINCT review_status, reviewed_at, review_reason FROM imports').all(), [{ review_status: 'completed', reviewed_at: null, review_reason: null }]);
      const indexes = storage.sqlite.prepare("SELECT name FROM sqlite_master WHERE tbl_name = 'imports' AND name LIKE 'imports_account_review_%' ORDER BY name").pluck().all();
      assert.deepEqual(indexes, ['imports_account_review_created', 'imports_account_review_updated']);
      assert.equal(storage.sqlite.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      storage.close();
    }
  });

  it('give each dataset a row and an id its records reference, every record and count kept', () => {
    const file = path.join(dir, 'dataset-ids.db');
    const old = openDatabase(file, { migrations: migrationsBefore(folderMigrationSource(), 'dataset_ids') });
    for (const statement of RECORDS_BEFORE_IDS) old.sqlite.exec(statement);
    old.close();
    const storage = openDatabase(file);
    try {
      assert.deepEqual(storage.sqlite.prepare(DATASET_RECORDS_JOINED).all(), RECORDS_AFTER_IDS);
      storage.sqlite.exec("DELETE FROM templates WHERE id = 'ta'");
      assert.deepEqual(storage.sqlite.prepare('SELECT template_id FROM datasets').pluck().all(), ['tb']);
      assert.equal(storage.sqlite.prepare('SELECT count(*) FROM dataset_records').pluck().get(), 1);
      assert.deepEqual(storage.sqlite.pragma('foreign_key_check'), []);
    } finally {
      storage.close();
    }
  });

  it('give each applied import an id its changes reference, every change kept and removed with its import', () => {
    const file = path.join(dir, 'applied-imports.db');
    const old = openDatabase(file, { migrations: migrationsBefore(folderMigrationSource(), 'applied_imports') });
    for (const statement of changesBeforeApplied('sqlite')) old.sqlite.exec(statement);
    old.close();
    const storage = openDatabase(file);
    try {
      assert.deepEqual(storage.sqlite.prepare(IMPORT_CHANGES_JOINED).all(), CHANGES_AFTER_APPLIED);
      storage.sqlite.exec("DELETE FROM imports WHERE id = 'a1'");
      assert.deepEqual(storage.sqlite.prepare(IMPORT_CHANGES_JOINED).all(), CHANGES_AFTER_APPLIED.slice(2));
      assert.deepEqual(storage.sqlite.prepare('SELECT count(*) AS n FROM import_changes').get(), { n: 1 });
      assert.deepEqual(storage.sqlite.pragma('foreign_key_check'), []);
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
