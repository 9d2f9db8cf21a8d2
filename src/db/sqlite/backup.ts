import type Database from 'better-sqlite3';

/**
 * Copies the database into `file` with SQLite's online backup API. 0x7fffffff pages a step means all of it
 * in the step after the first, in one read transaction: a single point in time, which concurrent writers
 * (in WAL mode they go on meanwhile) cannot restart. Returns the number of pages copied.
 */
export async function copyDatabase(sqlite: Database.Database, file: string): Promise<number> {
  const { totalPages } = await sqlite.backup(file, { progress: () => 0x7fffffff });
  return totalPages;
}

/**
 * Makes a fresh copy a self-contained single file (rollback journal, no -wal beside it) and returns its
 * `PRAGMA quick_check` ('ok' when sound). Works through this connection, with the copy attached meanwhile.
 */
export function finishCopy(sqlite: Database.Database, file: string): string {
  sqlite.prepare("ATTACH DATABASE ? AS 'backup_copy'").run(file);
  try {
    sqlite.pragma('backup_copy.journal_mode = DELETE');
    return (sqlite.pragma('backup_copy.quick_check') as { quick_check: string }[]).map((row) => row.quick_check).join('; ');
  } finally {
    sqlite.exec('DETACH DATABASE backup_copy');
  }
}
