import { newId } from '../../src/core/ids';
import type { Harness, TestEnvironment } from './harness';

export interface FixtureImport {
  endUserId?: string | null;
  rows?: number;
  createdAt?: string;
  status?: 'writing' | 'complete';
}

/**
 * Stores an import and its rows directly in the database (as the import writer leaves them), for tests of
 * code that reads or deletes imports without depending on POST /v1/imports. Returns the import id.
 */
export function insertImport(h: Harness, env: TestEnvironment, options: FixtureImport = {}): string {
  const sqlite = h.storage.sqlite;
  const createdAt = options.createdAt ?? h.ctx.clock().toISOString();
  let templateId = sqlite.prepare("SELECT id FROM templates WHERE account_id = ? AND key = 'fixture'").pluck().get(env.accountId) as string | undefined;
  if (!templateId) {
    templateId = newId();
    sqlite
      .prepare("INSERT INTO templates (id, account_id, key, schema, source, metadata, created_at, updated_at) VALUES (?, ?, 'fixture', '{}', 'studio', '{}', ?, ?)")
      .run(templateId, env.accountId, createdAt, createdAt);
  }
  const id = newId();
  const rows = options.rows ?? 3;
  const insertRow = sqlite.prepare('INSERT INTO import_rows (import_id, row_index, data) VALUES (?, ?, ?)');
  sqlite.transaction(() => {
    sqlite
      .prepare(
        `INSERT INTO imports (id, account_id, environment_id, template_id, status, meta, original_schema, end_user_id, row_count, cell_stats, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, '{}', '{}', ?, ?, '{}', ?, ?)`,
      )
      .run(id, env.accountId, env.environmentId, templateId, options.status ?? 'complete', options.endUserId ?? null, rows, createdAt, createdAt);
    for (let i = 0; i < rows; i++) insertRow.run(id, i, JSON.stringify({ n: i, who: options.endUserId ?? null }));
  })();
  return id;
}

/** Every import, row and session in the database, for before/after comparisons. */
export function dumpData(h: Harness) {
  const sqlite = h.storage.sqlite;
  return {
    imports: sqlite.prepare('SELECT * FROM imports ORDER BY id').all() as { id: string; account_id: string; end_user_id: string | null }[],
    rows: sqlite.prepare('SELECT * FROM import_rows ORDER BY import_id, row_index').all() as { import_id: string }[],
    sessions: sqlite.prepare('SELECT * FROM sessions ORDER BY jti').all() as { jti: string; account_id: string; end_user_id: string }[],
  };
}
