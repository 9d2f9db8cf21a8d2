import type pg from 'pg';
import type { RowStatus, StoredRow } from '../../store';

// The rows of one status (an invalid row is one stored with its errors, onInvalid `keep`): the partial index
// import_rows_invalid serves the invalid ones, so a page of them never walks the valid rows in between.

const pageSql = (status: RowStatus, direction: 'asc' | 'desc') =>
  `SELECT row_index AS "rowIndex", data, errors FROM import_rows WHERE import_id = $1 AND row_index ${direction === 'asc' ? '>' : '<'} $2::bigint AND errors IS ${status === 'invalid' ? 'NOT NULL' : 'NULL'} ORDER BY row_index ${direction.toUpperCase()} LIMIT $3`;

/** Up to `limit` rows of one status past `from` in row order, with their errors. */
export async function readRowsOfStatus(pool: pg.Pool, importId: string, status: RowStatus, direction: 'asc' | 'desc', from: number, limit: number): Promise<StoredRow[]> {
  const result = await pool.query<StoredRow>({ name: `import-rows-${status}-${direction}`, text: pageSql(status, direction), values: [importId, from, limit] });
  return result.rows;
}

/** The errors of the invalid rows between two row indexes (both included). */
export async function readErrorsBetween(pool: pg.Pool, importId: string, low: number, high: number): Promise<{ rowIndex: number; errors: string }[]> {
  const result = await pool.query<{ rowIndex: number; errors: string }>({
    name: 'import-rows-errors-between',
    text: 'SELECT row_index AS "rowIndex", errors FROM import_rows WHERE import_id = $1 AND row_index BETWEEN $2::bigint AND $3::bigint AND errors IS NOT NULL',
    values: [importId, low, high],
  });
  return result.rows;
}
