import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { StoredRow } from '../../store';

// Rows are the hot path: hand-written SQL on the pool's clients, no query builder.

/** COPY's text format takes these four characters escaped; JSON text only ever holds the backslash. */
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
/** Characters of COPY data handed to the socket at a time. */
const COPY_PIECE = 256 * 1024;

/**
 * Stores rows `first`, `first + 1`, ... of an import with one `COPY ... FROM STDIN` on one client: a single
 * statement, so the slice is stored whole or not at all (a failure mid-stream aborts the COPY).
 */
export async function copyRowTexts(pool: pg.Pool, importId: string, first: number, texts: readonly string[]): Promise<void> {
  if (texts.length === 0) return;
  const client = await pool.connect();
  try {
    const copy = client.query(copyFrom('COPY import_rows (import_id, row_index, data) FROM STDIN'));
    await pipeline(Readable.from(copyLines(importId, first, texts)), copy);
  } finally {
    client.release();
  }
}

function* copyLines(importId: string, first: number, texts: readonly string[]): Generator<string> {
  let piece = '';
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]!;
    piece += `${importId}\t${first + i}\t${COPY_SPECIAL.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]!) : text}\n`;
    if (piece.length >= COPY_PIECE) {
      yield piece;
      piece = '';
    }
  }
  if (piece) yield piece;
}

/**
 * Up to `limit` rows past `from` in row order, fewer when they are large: a row is returned while the rows
 * before the previous one hold less than `maxBytes` bytes of JSON (so one more row than fills the budget
 * comes back, as on SQLite). The sizes come from octet_length(), which reads a stored value's length
 * without decompressing it; only the rows returned are sent.
 */
export async function readRowChunk(
  pool: pg.Pool,
  importId: string,
  direction: 'asc' | 'desc',
  from: number,
  limit: number,
  maxBytes: number,
): Promise<StoredRow[]> {
  const result = await pool.query<StoredRow>({ name: `import-rows-chunk-${direction}`, text: CHUNK_SQL[direction], values: [importId, from, limit, maxBytes] });
  return result.rows;
}

const chunkSql = (direction: 'ASC' | 'DESC', beyond: '>' | '<') => `
  SELECT row_index AS "rowIndex", data FROM (
    SELECT row_index, data,
      sum(octet_length(data)) OVER (ORDER BY row_index ${direction} ROWS BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING) AS before
    FROM (SELECT row_index, data FROM import_rows WHERE import_id = $1 AND row_index ${beyond} $2 ORDER BY row_index ${direction} LIMIT $3) page
  ) sized
  WHERE before IS NULL OR before < $4
  ORDER BY row_index ${direction}`;

const CHUNK_SQL = { asc: chunkSql('ASC', '>'), desc: chunkSql('DESC', '<') };
