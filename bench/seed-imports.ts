import type Database from 'better-sqlite3';
import type pg from 'pg';
import { META } from './data';

/**
 * Stores `count` complete imports of the template's account through a second connection (seeding them through
 * HTTP would only measure the seeding), one second apart from 2025-01-01; returns the account id.
 */
export function seedImports(db: Database.Database, templateId: string, count: number): string {
  const account = db.prepare('SELECT account_id FROM templates WHERE id = ?').pluck().get(templateId) as string;
  const insert = db.prepare(
    `INSERT INTO imports (id, account_id, template_id, status, meta, row_count, cell_stats, created_at, updated_at)
     VALUES (?, ?, ?, 'complete', ?, 0, '{}', ?, ?)`,
  );
  const schema = db.prepare("INSERT INTO import_schemas (import_id, original_schema) VALUES (?, '{}')");
  const meta = JSON.stringify(META);
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      insert.run(seededId(i), account, templateId, meta, seededTime(i), seededTime(i));
      schema.run(seededId(i));
    }
  })();
  return account;
}

/** The same imports on PostgreSQL, in one statement (its triggers keep the account's import count). */
export async function seedPgImports(pool: pg.Pool, templateId: string, count: number): Promise<string> {
  const account = (await pool.query<{ account_id: string }>('SELECT account_id FROM templates WHERE id = $1', [templateId])).rows[0]!.account_id;
  const ids = Array.from({ length: count }, (_, i) => seededId(i));
  const times = Array.from({ length: count }, (_, i) => seededTime(i));
  await pool.query(
    `INSERT INTO imports (id, account_id, template_id, status, meta, original_schema, row_count, cell_stats, created_at, updated_at)
     SELECT id, $1, $2, 'complete', $3, '{}', 0, '{}', at, at FROM unnest($4::text[], $5::text[]) AS seeded(id, at)`,
    [account, templateId, JSON.stringify(META), ids, times],
  );
  await pool.query('ANALYZE imports');
  return account;
}

const seededId = (i: number) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`;
const seededTime = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString();
