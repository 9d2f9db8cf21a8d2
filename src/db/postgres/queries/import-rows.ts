import type pg from 'pg';
import type { StoredRow } from '../../store';
import { sizedStatement } from './sized-statements';

// Rows are the hot path: hand-written SQL on the pool's clients, no query builder (their COPY: row-copies.ts).

/**
 * Up to `limit` rows past `from` in row order, fewer when they are large: a row is returned while the rows
 * before the previous one hold less than `maxBytes` characters of JSON (so one more row than fills the budget
 * comes back, as on SQLite, whose length() counts characters too). Characters, not bytes: the service cuts
 * its pages by characters, and a chunk cut by bytes would end before the page does, hiding the rows after it
 * (`hasNext` false) when they hold multi-byte text. `from` is compared as a bigint: a first
 * descending page starts past Number.MAX_SAFE_INTEGER, beyond the integer column's range.
 */
export async function readRowChunk(
  pool: pg.Pool,
  importId: string,
  direction: 'asc' | 'desc',
  from: number,
  limit: number,
  maxBytes: number,
): Promise<StoredRow[]> {
  // A rows page's size is written in (sized-statements.ts says why): a page of 100 and the row after it at most.
  // An export's chunk keeps the parameter: its size follows the column count, and its rows outweigh a plan.
  const page = limit <= 101;
  const statement = page
    ? sizedStatement(`import-rows-page-${direction}`, limit, 101, CHUNK_SQL[direction])
    : { name: `import-rows-chunk-${direction}`, text: direction === 'asc' ? EXPORT_CHUNK_SQL : CHUNK_SQL.desc('$4') };
  const result = await pool.query<StoredRow>({ ...statement, values: page ? [importId, from, maxBytes] : [importId, from, maxBytes, limit] });
  return result.rows;
}

/** The chunk's statement, its size `limit` (a parameter or a number) written in; `bounded`, row_index at most `from + limit` too. */
const chunkSql = (direction: 'ASC' | 'DESC', beyond: '>' | '<', bounded = false) => (limit: string) => `
  SELECT row_index AS "rowIndex", data FROM (
    SELECT row_index, data,
      sum(char_length(data)) OVER (ORDER BY row_index ${direction} ROWS BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING) AS before
    FROM (SELECT row_index, data FROM import_rows WHERE import_id = $1 AND row_index ${beyond} $2::bigint${bounded ? ` AND row_index <= $2::bigint + ${limit}` : ''}
          ORDER BY row_index ${direction} LIMIT ${limit}) page
  ) sized
  WHERE before IS NULL OR before < $3
  ORDER BY row_index ${direction}`;

const CHUNK_SQL = { asc: chunkSql('ASC', '>'), desc: chunkSql('DESC', '<') };

// An export's chunk also bounds row_index to `from + limit`: an import's rows are numbered from 0 without a gap,
// so the bound leaves the answer as it was (an import being removed loses its rows in batches, and its export
// fails either way, short of its row count). Without it, PostgreSQL's statistics, which hold nothing yet of an
// import just written, made it expect a few hundred rows past `from`, under the LIMIT: it chose a bitmap scan
// of every row past `from` and a sort, so each of a connection's first five chunks (custom plans) read the rest
// of the import (a chunk from the middle of 100 000 rows: 27-67 ms; all of them over a new connection, in process:
// 503-741 -> 343-555 ms).
const EXPORT_CHUNK_SQL = chunkSql('ASC', '>', true)('$4');
