import { APPLY_CHUNK_ROWS, classifyKeyedRow, noChanges, recordKeyOf, type DatasetApply, type DatasetChanges } from '../../store';
import type { Db } from '../open-database';
import { rawQuery } from '../prepared';
import { countRecords, env, NOT_CARRIED } from './datasets';

// The hot path of a keyed import (an apply reads a record and writes a change per import row, and a record per
// inserted or updated row): raw statements prepared once per database. Each row's text is parsed once, for its
// key; a record is written by a plain INSERT or UPDATE, as its classification already knows which.

const statements = rawQuery((sqlite) => ({
  validRows: sqlite
    .prepare<[string, number, number], [number, string]>('SELECT row_index, data FROM import_rows WHERE import_id = ? AND row_index > ? AND errors IS NULL ORDER BY row_index LIMIT ?')
    .raw(),
  record: sqlite.prepare<[string, string, string], string>('SELECT record FROM dataset_records WHERE template_id = ? AND environment_id = ? AND key = ?').pluck(),
  insertChange: sqlite.prepare<[string, string, number, string, string | null]>('INSERT INTO import_changes (import_id, key, row_index, change, previous) VALUES (?, ?, ?, ?, ?)'),
  insert: sqlite.prepare<[string, string, string, string, string, string, string | null, string]>(
    'INSERT INTO dataset_records (template_id, environment_id, key, record, account_id, import_id, end_user_id, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ),
  update: sqlite.prepare<[string, string, string | null, string, string, string, string]>(
    'UPDATE dataset_records SET record = ?, import_id = ?, end_user_id = ?, updated_at = ? WHERE template_id = ? AND environment_id = ? AND key = ?',
  ),
  keepMissing: sqlite.prepare<[string, string, string, string]>(
    `INSERT INTO import_missing (import_id, key) SELECT ?, key FROM dataset_records d WHERE template_id = ? AND environment_id = ? AND ${NOT_CARRIED}`,
  ),
  removeMissing: sqlite.prepare<[string, string, string]>(`DELETE FROM dataset_records AS d WHERE template_id = ? AND environment_id = ? AND ${NOT_CARRIED}`),
  setChanges: sqlite.prepare<[string, string, string]>('UPDATE imports SET changes = ?, mode = ? WHERE id = ?'),
}));

/** DatasetStore.apply's work, to run inside the caller's write transaction (synchronous: nothing interleaves). */
export function applyDataset(db: Db, input: DatasetApply): DatasetChanges {
  const s = statements(db);
  const { importId, dataset, endUserId, at } = input;
  const { templateId, accountId } = dataset;
  const environmentId = env(dataset);
  const counts = noChanges();
  const before = countRecords(db, dataset);
  for (let from = -1; ; ) {
    const rows = s.validRows.all(importId, from, APPLY_CHUNK_ROWS);
    if (rows.length === 0) break;
    for (const [rowIndex, data] of rows) {
      const key = recordKeyOf(data, input.primaryKey);
      const previous = s.record.get(templateId, environmentId, key);
      const { change } = classifyKeyedRow({ rowIndex, data, key }, previous, counts);
      s.insertChange.run(importId, key, rowIndex, change, change === 'updated' ? previous! : null);
      if (change === 'inserted') s.insert.run(templateId, environmentId, key, data, accountId, importId, endUserId, at);
      else if (change === 'updated') s.update.run(data, importId, endUserId, at, templateId, environmentId, key);
    }
    from = rows[rows.length - 1]![0];
  }
  counts.missing = before - counts.updated - counts.unchanged;
  if (input.mode === 'replace' && counts.missing > 0) {
    s.keepMissing.run(importId, templateId, environmentId, importId);
    counts.removed = s.removeMissing.run(templateId, environmentId, importId).changes;
  }
  s.setChanges.run(JSON.stringify(counts), input.mode, importId);
  return counts;
}
