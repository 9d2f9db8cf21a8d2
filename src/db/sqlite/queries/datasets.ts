import type { RowChange } from '../../../rules/records';
import { APPLY_CHUNK_ROWS, classifyChunk, noChanges, type ChangedRowRow, type DatasetApply, type DatasetChanges, type DatasetMode, type DatasetRecordRow, type DatasetRef } from '../../store';
import type { Db } from '../open-database';
import { rawQuery } from '../prepared';

// Datasets are a hot path (an apply reads and writes a row of each table per import row): raw statements,
// prepared once per database. `environment_id` is '' for a dataset of no environment.

const env = (ref: DatasetRef) => ref.environmentId ?? '';

const statements = rawQuery((sqlite) => {
  // The dataset's keys an import did not carry: no change of the import has them.
  const notCarried = 'NOT EXISTS (SELECT 1 FROM import_changes c WHERE c.import_id = ? AND c.key = d.key)';
  return {
    count: sqlite.prepare<[string, string], number>('SELECT count(*) FROM dataset_records WHERE template_id = ? AND environment_id = ?').pluck(),
    validRows: sqlite
      .prepare<[string, number, number], [number, string]>(
        'SELECT row_index, data FROM import_rows WHERE import_id = ? AND row_index > ? AND errors IS NULL ORDER BY row_index LIMIT ?',
      )
      .raw(),
    record: sqlite.prepare<[string, string, string], string>('SELECT record FROM dataset_records WHERE template_id = ? AND environment_id = ? AND key = ?').pluck(),
    insertChange: sqlite.prepare<[string, string, number, string, string | null]>('INSERT INTO import_changes (import_id, key, row_index, change, previous) VALUES (?, ?, ?, ?, ?)'),
    upsert: sqlite.prepare<[string, string, string, string, string, string, string | null, string]>(
      `INSERT INTO dataset_records (template_id, environment_id, key, record, account_id, import_id, end_user_id, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (template_id, environment_id, key) DO UPDATE SET record = excluded.record, import_id = excluded.import_id,
         end_user_id = excluded.end_user_id, updated_at = excluded.updated_at`,
    ),
    keepMissing: sqlite.prepare<[string, string, string, string]>(
      `INSERT INTO import_missing (import_id, key) SELECT ?, key FROM dataset_records d WHERE template_id = ? AND environment_id = ? AND ${notCarried}`,
    ),
    removeMissing: sqlite.prepare<[string, string, string]>(`DELETE FROM dataset_records AS d WHERE template_id = ? AND environment_id = ? AND ${notCarried}`),
    setChanges: sqlite.prepare<[string, string, string]>('UPDATE imports SET changes = ?, mode = ? WHERE id = ?'),
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
        `SELECT key FROM dataset_records d WHERE template_id = ? AND environment_id = ? AND key > ? AND ${notCarried} ORDER BY key LIMIT ?`,
      )
      .pluck(),
    eraseEndUser: sqlite.prepare<[string, string]>('DELETE FROM dataset_records WHERE account_id = ? AND end_user_id = ?'),
  };
});

/** DatasetStore.apply's work, to run inside the caller's write transaction (synchronous: nothing interleaves). */
export function applyDataset(db: Db, input: DatasetApply): DatasetChanges {
  const s = statements(db);
  const { templateId } = input.dataset;
  const environmentId = env(input.dataset);
  const counts = noChanges();
  const before = s.count.get(templateId, environmentId)!;
  const recordOf = (key: string) => s.record.get(templateId, environmentId, key);
  for (let from = -1; ; ) {
    const rows = s.validRows.all(input.importId, from, APPLY_CHUNK_ROWS);
    if (rows.length === 0) break;
    const chunk = rows.map(([rowIndex, data]) => ({ rowIndex, data }));
    for (const row of classifyChunk(chunk, input.primaryKey, recordOf, counts)) {
      s.insertChange.run(input.importId, row.key, row.rowIndex, row.change, row.change === 'updated' ? row.previous! : null);
      if (row.change !== 'unchanged') s.upsert.run(templateId, environmentId, row.key, row.data, input.dataset.accountId, input.importId, input.endUserId, input.at);
    }
    from = rows[rows.length - 1]![0];
  }
  counts.missing = before - counts.updated - counts.unchanged;
  if (input.mode === 'replace' && counts.missing > 0) {
    s.keepMissing.run(input.importId, templateId, environmentId, input.importId);
    counts.removed = s.removeMissing.run(templateId, environmentId, input.importId).changes;
  }
  s.setChanges.run(JSON.stringify(counts), input.mode, input.importId);
  return counts;
}

export function findRecords(db: Db, ref: DatasetRef, keys: readonly string[]): Map<string, string> {
  const s = statements(db);
  const found = new Map<string, string>();
  for (const key of keys) {
    const record = s.record.get(ref.templateId, env(ref), key);
    if (record !== undefined) found.set(key, record);
  }
  return found;
}

export const countRecords = (db: Db, ref: DatasetRef): number => statements(db).count.get(ref.templateId, env(ref))!;

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
