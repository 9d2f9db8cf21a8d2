import type { RowChange } from '../../../rules/records';
import { APPLY_CHUNK_ROWS, classifyKeyedRow, noChanges, withKeys, type DatasetApply, type DatasetChanges, type KeyedRow } from '../../store';
import type { Db } from '../open-database';
import { rawQuery } from '../prepared';
import { ensureDataset, NOT_CARRIED } from './datasets';

// The hot path of a keyed import (an apply reads a record and writes a change per import row, and a record per
// inserted or updated row): raw statements prepared once per database. Each row's text is parsed once, for its
// key and its classification; a record is written by a plain INSERT or UPDATE, as its classification already knows which.

// A change row's values; they are inserted CHANGES_PER_INSERT to a statement: a statement's own cost (the call
// into the addon, binding, reset) was about a fifth of a change insert's.
type ChangeValues = [number, string, number, string, string | null];
const CHANGE_VALUES = '(?, ?, ?, ?, ?)';
const CHANGES_PER_INSERT = 100;
const CHANGE_VALUES_COUNT = 5;

const statements = rawQuery((sqlite) => ({
  validRows: sqlite.prepare<[string, number, number], { rowIndex: number; data: string }>(
    'SELECT row_index AS rowIndex, data FROM import_rows WHERE import_id = ? AND row_index > ? AND errors IS NULL ORDER BY row_index LIMIT ?',
  ),
  record: sqlite.prepare<[number, string], string>('SELECT record FROM dataset_records WHERE dataset_id = ? AND key = ?').pluck(),
  applied: sqlite.prepare<[string], number>('INSERT INTO applied_imports (import_id) VALUES (?) RETURNING id').pluck(),
  insertChange: sqlite.prepare<ChangeValues>(`INSERT INTO import_changes (applied_id, key, row_index, change, previous) VALUES ${CHANGE_VALUES}`),
  insertChanges: sqlite.prepare<ChangeValues[number][]>(`INSERT INTO import_changes (applied_id, key, row_index, change, previous) VALUES ${Array(CHANGES_PER_INSERT).fill(CHANGE_VALUES).join(', ')}`),
  insert: sqlite.prepare<[number, string, string, string, string | null, string]>(
    'INSERT INTO dataset_records (dataset_id, key, record, import_id, end_user_id, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  ),
  update: sqlite.prepare<[string, string, string | null, string, number, string]>(
    'UPDATE dataset_records SET record = ?, import_id = ?, end_user_id = ?, updated_at = ? WHERE dataset_id = ? AND key = ?',
  ),
  keepMissing: sqlite.prepare<[string, number, string]>(`INSERT INTO import_missing (import_id, key) SELECT ?, key FROM dataset_records d WHERE dataset_id = ? AND ${NOT_CARRIED}`),
  removeMissing: sqlite.prepare<[number, string]>(`DELETE FROM dataset_records AS d WHERE dataset_id = ? AND ${NOT_CARRIED}`),
  count: sqlite.prepare<[number, number]>('UPDATE datasets SET records = records + ? WHERE id = ?'),
  setChanges: sqlite.prepare<[string, string, string]>('UPDATE imports SET changes = ?, mode = ? WHERE id = ?'),
}));

/**
 * A chunk's rows with their keys, in key order: the chunk's lookups, writes and changes then walk the B-trees
 * in one direction (an apply's CPU about a tenth less than in row order, with the dataset larger than the page
 * cache). Valid rows' keys are distinct (duplicate_key), so the order changes no outcome.
 */
function inKeyOrder(rows: { rowIndex: number; data: string }[], primaryKey: readonly string[]): KeyedRow[] {
  return withKeys(rows, primaryKey).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The apply's change rows, inserted CHANGES_PER_INSERT at a time; `flush` inserts the rest one by one. */
function changeInserts(s: ReturnType<typeof statements>, appliedId: number) {
  let values: ChangeValues[number][] = [];
  return {
    add(key: string, rowIndex: number, change: RowChange, previous: string | null) {
      values.push(appliedId, key, rowIndex, change, previous);
      if (values.length < CHANGES_PER_INSERT * CHANGE_VALUES_COUNT) return;
      s.insertChanges.run(...values);
      values = [];
    },
    flush() {
      for (let i = 0; i < values.length; i += CHANGE_VALUES_COUNT) s.insertChange.run(...(values.slice(i, i + CHANGE_VALUES_COUNT) as ChangeValues));
      values = [];
    },
  };
}

/** DatasetStore.apply's work, to run inside the caller's write transaction (synchronous: nothing interleaves). */
export function applyDataset(db: Db, input: DatasetApply): DatasetChanges {
  const s = statements(db);
  const { importId, endUserId, at } = input;
  const dataset = ensureDataset(db, input.dataset);
  const appliedId = s.applied.get(importId)!;
  const counts = noChanges();
  const changes = changeInserts(s, appliedId);
  for (let from = -1; ; ) {
    const rows = s.validRows.all(importId, from, APPLY_CHUNK_ROWS);
    if (rows.length === 0) break;
    for (const row of inKeyOrder(rows, input.primaryKey)) {
      const { rowIndex, data, key } = row;
      const previous = s.record.get(dataset.id, key);
      const { change } = classifyKeyedRow(row, previous, counts);
      changes.add(key, rowIndex, change, change === 'updated' ? previous! : null);
      if (change === 'inserted') s.insert.run(dataset.id, key, data, importId, endUserId, at);
      else if (change === 'updated') s.update.run(data, importId, endUserId, at, dataset.id, key);
    }
    from = rows[rows.length - 1]!.rowIndex;
  }
  changes.flush();
  counts.missing = dataset.records - counts.updated - counts.unchanged;
  if (input.mode === 'replace' && counts.missing > 0) {
    s.keepMissing.run(importId, dataset.id, importId);
    counts.removed = s.removeMissing.run(dataset.id, importId).changes;
  }
  s.count.run(counts.inserted - counts.removed, dataset.id);
  s.setChanges.run(JSON.stringify(counts), input.mode, importId);
  return counts;
}
