import { newId } from '../../src/core/ids';
import type { Harness, TestEnvironment } from './harness';
import { testEngine } from './test-database';

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
export async function insertImport(h: Harness, env: TestEnvironment, options: FixtureImport = {}): Promise<string> {
  const createdAt = options.createdAt ?? h.ctx.clock().toISOString();
  let templateId = (await h.sql<{ id: string }>("SELECT id FROM templates WHERE account_id = ? AND key = 'fixture'", env.accountId))[0]?.id;
  if (!templateId) {
    templateId = newId();
    await h.sql(
      "INSERT INTO templates (id, account_id, key, schema, source, metadata, created_at, updated_at) VALUES (?, ?, 'fixture', '{}', 'studio', '{}', ?, ?)",
      templateId,
      env.accountId,
      createdAt,
      createdAt,
    );
  }
  const id = newId();
  const rows = options.rows ?? 3;
  await h.sql(
    `INSERT INTO imports (id, account_id, environment_id, template_id, status, meta, end_user_id, row_count, cell_stats, created_at, updated_at${SCHEMA_COLUMN})
     VALUES (?, ?, ?, ?, ?, '{}', ?, ?, '{}', ?, ?${SCHEMA_VALUE})`,
    id, env.accountId, env.environmentId, templateId, options.status ?? 'complete', options.endUserId ?? null, rows, createdAt, createdAt,
  );
  if (!SCHEMA_IN_ROW) await storeOriginalSchema(h, id, '{}');
  await insertRowTexts(h, id, Array.from({ length: rows }, (_, i) => JSON.stringify({ n: i, who: options.endUserId ?? null })));
  return id;
}

/** Stores rows 0, 1, ... of an import directly, 500 to a statement (as a complete import holds them). */
export async function insertRowTexts(h: Harness, importId: string, texts: readonly string[]): Promise<void> {
  for (let first = 0; first < texts.length; first += 500) {
    const batch = texts.slice(first, first + 500);
    const values = batch.flatMap((text, i) => [importId, first + i, text]);
    await h.sql(`INSERT INTO import_rows (import_id, row_index, data) VALUES ${batch.map(() => '(?, ?, ?)').join(', ')}`, ...values);
  }
}

/** Every import, row and session in the database, for before/after comparisons. */
export async function dumpData(h: Harness) {
  return {
    imports: await h.sql<{ id: string; account_id: string; end_user_id: string | null }>('SELECT * FROM imports ORDER BY id'),
    rows: await h.sql<{ import_id: string }>('SELECT * FROM import_rows ORDER BY import_id, row_index'),
    sessions: await h.sql<{ jti: string; account_id: string; end_user_id: string }>('SELECT * FROM sessions ORDER BY jti'),
  };
}

// An import's original schema is a column of its row on PostgreSQL, a row of import_schemas on SQLite
// (src/db/sqlite/schema.ts says why).
const SCHEMA_IN_ROW = testEngine === 'postgres';
/** For a raw `INSERT INTO imports`: its original-schema column and value (`'{}'`) where the row holds it; else nothing (then storeOriginalSchema). */
export const SCHEMA_COLUMN = SCHEMA_IN_ROW ? ', original_schema' : '';
export const SCHEMA_VALUE = SCHEMA_IN_ROW ? ", '{}'" : '';

/** Stores (or replaces) an import's original schema where the engine keeps it; the import exists. */
export async function storeOriginalSchema(h: Harness, importId: string, schema: string): Promise<void> {
  if (SCHEMA_IN_ROW) await h.sql('UPDATE imports SET original_schema = ? WHERE id = ?', schema, importId);
  else await h.sql('INSERT INTO import_schemas (import_id, original_schema) VALUES (?, ?) ON CONFLICT (import_id) DO UPDATE SET original_schema = excluded.original_schema', importId, schema);
}
