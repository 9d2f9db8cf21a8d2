import type { RowChange } from '../../../rules/records';
import type { ChangedRowRow, DatasetMode, DatasetRecordRow, DatasetRef } from '../../store';
import type { Db } from '../open-database';
import { rawQuery } from '../prepared';

// Datasets are a hot path (an apply reads and writes a row of each table per import row): raw statements,
// prepared once per database. `environment_id` is '' for a dataset of no environment.

export const env = (ref: DatasetRef) => ref.environmentId ?? '';

/** The dataset's keys an import did not carry: no change of the import has them. */
export const NOT_CARRIED = 'NOT EXISTS (SELECT 1 FROM import_changes c WHERE c.import_id = ? AND c.key = d.key)';

const statements = rawQuery((sqlite) => ({
    // The count the triggers keep (the dataset_counts migration): no row until the dataset's first record.
    count: sqlite.prepare<[string, string], number>('SELECT records FROM dataset_counts WHERE template_id = ? AND environment_id = ?').pluck(),
    record: sqlite.prepare<[string, string, string], string>('SELECT record FROM dataset_records WHERE template_id = ? AND environment_id = ? AND key = ?').pluck(),
    changedRows: sqlite
      .prepare<[string, string, number, number], [number, string, string | null]>(
        `SELECT c.row_index, r.data, c.previous FROM import_changes c JOIN import_rows r ON r.import_id = c.import_id AND r.row_index = c.row_index
         WHERE c.import_id = ? AND c.change = ? AND c.row_index > ? ORDER BY c.row_index LIMIT ?`,
      )
      .raw(),
    page: sqlite.prepare<[string, string, string, number], DatasetRecordRow>(
      `SELECT key, record, import_id AS importId, end_user_id AS endUserId, updated_at AS updatedAt FROM dataset_records
       WHERE template_id = ? AND environment_id = ? AND key > ? ORDER BY key LIMIT ?`,
    ),
    one: sqlite.prepare<[string, string, string], DatasetRecordRow>(
      `SELECT key, record, import_id AS importId, end_user_id AS endUserId, updated_at AS updatedAt FROM dataset_records
       WHERE template_id = ? AND environment_id = ? AND key = ?`,
    ),
    removedKeys: sqlite.prepare<[string, string, number], string>('SELECT key FROM import_missing WHERE import_id = ? AND key > ? ORDER BY key LIMIT ?').pluck(),
    missingNow: sqlite
      .prepare<[string, string, string, string, number], string>(
        `SELECT key FROM dataset_records d WHERE template_id = ? AND environment_id = ? AND key > ? AND ${NOT_CARRIED} ORDER BY key LIMIT ?`,
      )
      .pluck(),
    eraseEndUser: sqlite.prepare<[string, string]>('DELETE FROM dataset_records WHERE account_id = ? AND end_user_id = ?'),
}));

export function findRecords(db: Db, ref: DatasetRef, keys: readonly string[]): Map<string, string> {
  const s = statements(db);
  const found = new Map<string, string>();
  for (const key of keys) {
    const record = s.record.get(ref.templateId, env(ref), key);
    if (record !== undefined) found.set(key, record);
  }
  return found;
}

export const countRecords = (db: Db, ref: DatasetRef): number => statements(db).count.get(ref.templateId, env(ref)) ?? 0;

export function pageRecords(db: Db, ref: DatasetRef, query: { after?: string; key?: string; limit: number }): DatasetRecordRow[] {
  const s = statements(db);
  if (query.key !== undefined) {
    const row = query.after === undefined ? s.one.get(ref.templateId, env(ref), query.key) : undefined;
    return row ? [row] : [];
  }
  return s.page.all(ref.templateId, env(ref), query.after ?? '', query.limit);
}

export function changedRows(db: Db, importId: string, change: RowChange, after: number, limit: number): ChangedRowRow[] {
  return statements(db)
    .changedRows.all(importId, change, after, limit)
    .map(([rowIndex, data, previous]) => ({ rowIndex, data, previous }));
}

/** The import's missing keys after `after`: a replace import's removed ones as stored; for an upsert, the dataset's keys now that it did not carry. */
export function missingKeys(db: Db, ref: DatasetRef, importId: string, mode: DatasetMode, query: { after?: string; limit: number }): string[] {
  const s = statements(db);
  if (mode === 'replace') return s.removedKeys.all(importId, query.after ?? '', query.limit);
  return s.missingNow.all(ref.templateId, env(ref), query.after ?? '', importId, query.limit);
}

export function eraseEndUserRecords(db: Db, accountId: string, endUserId: string): number {
  return statements(db).eraseEndUser.run(accountId, endUserId).changes;
}
