import type { MigrationSource } from '../../src/db/sqlite/migrations';

/** The same migrations as `source`, stopped before the one whose tag ends with `_${name}`: a database as it was. */
export function migrationsBefore(source: MigrationSource, name: string): MigrationSource {
  const journal = JSON.parse(source.read('meta/_journal.json')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag.endsWith(`_${name}`));
  if (at < 0) throw new Error(`no migration named ${name}`);
  const earlier = JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) });
  return { read: (relative) => (relative === 'meta/_journal.json' ? earlier : source.read(relative)) };
}

/** Accounts `a` and `b` with complete imports (3 and 2) and one of `a` still being written, (plain SQL, either engine). */
export const IMPORTS_BEFORE_COUNTS = [
  "INSERT INTO accounts (id, name, created_at) VALUES ('a', 'a', '2026-01-01T00:00:00.000Z'), ('b', 'b', '2026-01-01T00:00:00.000Z')",
  `INSERT INTO templates (id, account_id, key, schema, source, metadata, created_at, updated_at)
   VALUES ('ta', 'a', 'k', '{}', 'studio', '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
          ('tb', 'b', 'k', '{}', 'studio', '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
  `INSERT INTO imports (id, account_id, template_id, status, meta, original_schema, created_at, updated_at)
   VALUES ${[['a1', 'a', 'complete'], ['a2', 'a', 'complete'], ['a3', 'a', 'complete'], ['a4', 'a', 'writing'], ['b1', 'b', 'complete'], ['b2', 'b', 'complete']]
     .map(([id, account, status]) => `('${id}', '${account}', 't${account}', '${status}', '{}', '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`)
     .join(', ')}`,
];

export const COUNTS_AFTER = [
  { account_id: 'a', complete: 3 },
  { account_id: 'b', complete: 2 },
];

/** Records of three datasets (template `ta` in environment `e1` and in none, `tb` in `e2`) as stored before dataset ids (plain SQL, either engine). */
export const RECORDS_BEFORE_IDS = [
  ...IMPORTS_BEFORE_COUNTS.slice(0, 2),
  `INSERT INTO dataset_records (template_id, environment_id, key, record, account_id, import_id, end_user_id, updated_at)
   VALUES ${[['ta', 'e1', 'k1', 'a', 'u1'], ['ta', 'e1', 'k2', 'a', null], ['ta', '', 'k1', 'a', null], ['tb', 'e2', 'k1', 'b', 'u2']]
     .map(([template, env, key, account, endUser]) => `('${template}', '${env}', '["${key}"]', '{"id":"${key}"}', '${account}', 'i${template}', ${endUser ? `'${endUser}'` : 'NULL'}, '2026-01-01T00:00:00.000Z')`)
     .join(', ')}`,
];

/** What RECORDS_BEFORE_IDS reads as after the dataset_ids migration, by the query DATASET_RECORDS_JOINED. */
export const RECORDS_AFTER_IDS = [
  { template_id: 'ta', environment_id: '', account_id: 'a', records: 1, key: '["k1"]', record: '{"id":"k1"}', import_id: 'ita', end_user_id: null },
  { template_id: 'ta', environment_id: 'e1', account_id: 'a', records: 2, key: '["k1"]', record: '{"id":"k1"}', import_id: 'ita', end_user_id: 'u1' },
  { template_id: 'ta', environment_id: 'e1', account_id: 'a', records: 2, key: '["k2"]', record: '{"id":"k2"}', import_id: 'ita', end_user_id: null },
  { template_id: 'tb', environment_id: 'e2', account_id: 'b', records: 1, key: '["k1"]', record: '{"id":"k1"}', import_id: 'itb', end_user_id: 'u2' },
];

export const DATASET_RECORDS_JOINED = `SELECT d.template_id, d.environment_id, d.account_id, d.records, r.key, r.record, r.import_id, r.end_user_id
  FROM dataset_records r JOIN datasets d ON d.id = r.dataset_id ORDER BY d.template_id, d.environment_id, r.key`;

/**
 * Changes of two applied imports (`a1` of account a, `b1` of b) as stored before applied_imports (plain SQL). The
 * imports' rows differ by engine: on PostgreSQL the import's original schema is still a column of its own.
 */
export const changesBeforeApplied = (engine: 'sqlite' | 'postgres') => [
  ...IMPORTS_BEFORE_COUNTS.slice(0, 2),
  `INSERT INTO imports (id, account_id, template_id, status, meta, ${engine === 'postgres' ? 'original_schema, ' : ''}created_at, updated_at)
   VALUES ${['a1', 'b1'].map((id) => `('${id}', '${id[0]}', 't${id[0]}', 'complete', '{}', ${engine === 'postgres' ? "'{}', " : ''}'2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`).join(', ')}`,
  `INSERT INTO import_changes (import_id, key, row_index, change, previous)
   VALUES ('a1', '["k2"]', 0, 'updated', '{"id":"k2","n":1}'), ('a1', '["k1"]', 1, 'inserted', NULL), ('b1', '["k1"]', 0, 'unchanged', NULL)`,
];

/** What changesBeforeApplied reads as after the applied_imports migration, by the query IMPORT_CHANGES_JOINED. */
export const CHANGES_AFTER_APPLIED = [
  { import_id: 'a1', key: '["k1"]', row_index: 1, change: 'inserted', previous: null },
  { import_id: 'a1', key: '["k2"]', row_index: 0, change: 'updated', previous: '{"id":"k2","n":1}' },
  { import_id: 'b1', key: '["k1"]', row_index: 0, change: 'unchanged', previous: null },
];

export const IMPORT_CHANGES_JOINED = `SELECT a.import_id, c.key, c.row_index, c.change, c.previous
  FROM import_changes c JOIN applied_imports a ON a.id = c.applied_id ORDER BY a.import_id, c.key`;
