import type Database from 'better-sqlite3';
import { META } from './data';

/**
 * Stores `count` complete imports of the template's account through a second connection (seeding them through
 * HTTP would only measure the seeding), one second apart from 2025-01-01; returns the account id.
 */
export function seedImports(db: Database.Database, templateId: string, count: number): string {
  const account = db.prepare('SELECT account_id FROM templates WHERE id = ?').pluck().get(templateId) as string;
  const insert = db.prepare(
    `INSERT INTO imports (id, account_id, template_id, status, meta, original_schema, row_count, cell_stats, created_at, updated_at)
     VALUES (?, ?, ?, 'complete', ?, '{}', 0, '{}', ?, ?)`,
  );
  const meta = JSON.stringify(META);
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const at = new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString();
      insert.run(`00000000-0000-7000-8000-${String(i).padStart(12, '0')}`, account, templateId, meta, at, at);
    }
  })();
  return account;
}
