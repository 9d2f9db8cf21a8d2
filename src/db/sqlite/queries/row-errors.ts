import type Database from 'better-sqlite3';
import type { RowStatus, StoredRow } from '../../store';

// The rows of one status (an invalid row is one stored with its errors, onInvalid `keep`): the partial index
// import_rows_invalid serves the invalid ones, so a page of them never walks the valid rows in between.

interface Statements {
  page: Record<`${RowStatus}-${'asc' | 'desc'}`, Database.Statement<[string, number, number], StoredRow>>;
  errorsBetween: Database.Statement<[string, number, number], { rowIndex: number; errors: string }>;
}

const cache = new WeakMap<Database.Database, Statements>();

function statements(sqlite: Database.Database): Statements {
  let prepared = cache.get(sqlite);
  if (!prepared) {
    // `LIMIT ? + 0`: see import-rows.ts (a bare LIMIT parameter re-prepares the statement on every run).
    const page = (status: RowStatus, direction: 'asc' | 'desc') =>
      sqlite.prepare<[string, number, number], StoredRow>(
        `SELECT row_index AS rowIndex, data, errors FROM import_rows WHERE import_id = ? AND row_index ${direction === 'asc' ? '>' : '<'} ? AND errors IS ${status === 'invalid' ? 'NOT NULL' : 'NULL'} ORDER BY row_index ${direction.toUpperCase()} LIMIT ? + 0`,
      );
    prepared = {
      page: { 'invalid-asc': page('invalid', 'asc'), 'invalid-desc': page('invalid', 'desc'), 'valid-asc': page('valid', 'asc'), 'valid-desc': page('valid', 'desc') },
      errorsBetween: sqlite.prepare(
        'SELECT row_index AS rowIndex, errors FROM import_rows WHERE import_id = ? AND row_index BETWEEN ? AND ? AND errors IS NOT NULL',
      ),
    };
    cache.set(sqlite, prepared);
  }
  return prepared;
}

/** Up to `limit` rows of one status past `from` in row order, with their errors. */
export function readRowsOfStatus(sqlite: Database.Database, importId: string, status: RowStatus, direction: 'asc' | 'desc', from: number, limit: number): StoredRow[] {
  return statements(sqlite).page[`${status}-${direction}`].all(importId, from, limit);
}

/** The errors of the invalid rows between two row indexes (both included). */
export function readErrorsBetween(sqlite: Database.Database, importId: string, low: number, high: number): { rowIndex: number; errors: string }[] {
  return statements(sqlite).errorsBetween.all(importId, low, high);
}
