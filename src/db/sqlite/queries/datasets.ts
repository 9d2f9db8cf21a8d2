import type { RowChange } from '../../../rules/records';
import type { ChangedRowRow, DatasetMode, DatasetRecordRow, DatasetRef } from '../../store';
import type { Db } from '../open-database';
import { rawQuery } from '../prepared';

// Datasets are a hot path (an apply reads and writes a row of each table per import row): raw statements,
// prepared once per database. A dataset is a row of `datasets` (the dataset_ids migration), found by its
// template and environment ('' for none); its records reference its integer id. An applied import's changes
// reference its row of `applied_imports` likewise (the applied_imports migration).

const env = (ref: DatasetRef) => ref.environmentId ?? '';

/** The dataset's keys an import did not carry: no change of the import has them. */
export const NOT_CARRIED = 'NOT EXISTS (SELECT 1 FROM import_changes c WHERE c.applied_id = (SELECT id FROM applied_imports WHERE import_id = ?) AND c.key = d.key)';

const statements = rawQuery((sqlite) => ({
  dataset: sqlite.prepare<[string, string], [number, number]>('SELECT id, records FROM datasets WHERE template_id = ? AND environment_id = ?').raw(),
  createDataset: sqlite.prepare<[string, string, string]>(
    'INSERT INTO datasets (template_id, environment_id, account_id, records) VALUES (?, ?, ?, 0) ON CONFLICT (template_id, environment_id) DO NOTHING',
  ),
  record: sqlite.prepare<[number, string], string>('SELECT record FROM dataset_records WHERE dataset_id = ? AND key = ?').pluck(),
  changedRows: sqlite
    .prepare<[string, string, number, number], [number, string, string | null]>(
      `SELECT c.row_index, r.data, c.previous FROM applied_imports a JOIN import_changes c ON c.applied_id = a.id
       JOIN import_rows r ON r.import_id = a.import_id AND r.row_index = c.row_index
       WHERE a.import_id = ? AND c.change = ? AND c.row_index > ? ORDER BY c.row_index LIMIT ?`,
    )
    .raw(),
  page: sqlite.prepare<[number, string, number], DatasetRecordRow>(
    `SELECT key, record, import_id AS importId, end_user_id AS endUserId, updated_at AS updatedAt FROM dataset_records
     WHERE dataset_id = ? AND key > ? ORDER BY key LIMIT ?`,
  ),
  one: sqlite.prepare<[number, string], DatasetRecordRow>(
    'SELECT key, record, import_id AS importId, end_user_id AS endUserId, updated_at AS updatedAt FROM dataset_records WHERE dataset_id = ? AND key = ?',
  ),
  removedKeys: sqlite.prepare<[string, string, number], string>('SELECT key FROM import_missing WHERE import_id = ? AND key > ? ORDER BY key LIMIT ?').pluck(),
  missingNow: sqlite
    .prepare<[number, string, string, number], string>(`SELECT key FROM dataset_records d WHERE dataset_id = ? AND key > ? AND ${NOT_CARRIED} ORDER BY key LIMIT ?`)
    .pluck(),
  // The counts first, while the records to erase are still there to count.
  uncountEndUser: sqlite.prepare<[string, string]>(
    'UPDATE datasets SET records = records - (SELECT count(*) FROM dataset_records r WHERE r.dataset_id = datasets.id AND r.end_user_id = ?) WHERE account_id = ?',
  ),
  eraseEndUser: sqlite.prepare<[string, string]>('DELETE FROM dataset_records WHERE end_user_id = ? AND dataset_id IN (SELECT id FROM datasets WHERE account_id = ?)'),
}));

/** A dataset's id and record count; undefined until its first apply. */
export function findDataset(db: Db, ref: DatasetRef): { id: number; records: number } | undefined {
  const row = statements(db).dataset.get(ref.templateId, env(ref));
  return row && { id: row[0], records: row[1] };
}

/** The dataset's id and record count, its row created (empty) if it has none: for an apply, in its transaction. */
export function ensureDataset(db: Db, ref: DatasetRef): { id: number; records: number } {
  statements(db).createDataset.run(ref.templateId, env(ref), ref.accountId);
  return findDataset(db, ref)!;
}

export function findRecords(db: Db, ref: DatasetRef, keys: readonly string[]): Map<string, string> {
  const s = statements(db);
  const found = new Map<string, string>();
  const dataset = findDataset(db, ref);
  if (!dataset) return found;
  for (const key of keys) {
    const record = s.record.get(dataset.id, key);
    if (record !== undefined) found.set(key, record);
  }
  return found;
}

export const countRecords = (db: Db, ref: DatasetRef): number => findDataset(db, ref)?.records ?? 0;

export function pageRecords(db: Db, ref: DatasetRef, query: { after?: string; key?: string; limit: number }): DatasetRecordRow[] {
  const s = statements(db);
  const dataset = findDataset(db, ref);
  if (!dataset) return [];
  if (query.key !== undefined) {
    const row = query.after === undefined ? s.one.get(dataset.id, query.key) : undefined;
    return row ? [row] : [];
  }
  return s.page.all(dataset.id, query.after ?? '', query.limit);
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
  const dataset = findDataset(db, ref);
  return dataset ? s.missingNow.all(dataset.id, query.after ?? '', importId, query.limit) : [];
}

/** Removes the records the end-user wrote last from the account's datasets, inside the caller's transaction. */
export function eraseEndUserRecords(db: Db, accountId: string, endUserId: string): number {
  const s = statements(db);
  s.uncountEndUser.run(endUserId, accountId);
  return s.eraseEndUser.run(endUserId, accountId).changes;
}
