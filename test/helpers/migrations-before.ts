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
