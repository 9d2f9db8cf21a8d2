import type Database from 'better-sqlite3';
import type { FramedRows, RowFrame, RowJsonPage } from '../../store';

// Rows are the hot path: raw better-sqlite3 statements, prepared once per connection and reused.

export interface StoredRow {
  rowIndex: number;
  /** The row object as stored: JSON text, spliced into responses without parsing. */
  data: string;
}

interface RowStatements {
  insert: Database.Statement<[string, number, string]>;
  after: Database.Statement<[string, number, number], StoredRow>;
  before: Database.Statement<[string, number, number], StoredRow>;
  /** Per row `rowIndex,data` as one text, or the bare rowIndex when the row's JSON is over the first parameter's bytes (plucked). */
  cappedAfter: Database.Statement<[number, string, number, number], string | number>;
  cappedBefore: Database.Statement<[number, string, number, number], string | number>;
  jsonPage: Database.Statement<[string, number, string, number, number], JsonPageColumns>;
  framed: Database.Statement<[string, string, number, string, number, number], FramedColumns>;
}

/** The page's JSON (null when empty), its row count, how many rows are within their share, its last rowIndex, 1 if a row follows. */
type JsonPageColumns = [Buffer | null, number, number, number | null, number];

/** The framed rows (null when none), their count, how many are within their share, the last rowIndex. */
type FramedColumns = [Buffer | null, number, number, number | null];

// `LIMIT ? + 0`, not `LIMIT ?`: SQLite (3.53, bundled by better-sqlite3 12) reads a bare LIMIT parameter's
// value when it plans a statement, and so marks the statement expired whenever that parameter is bound again:
// a statement kept prepared was prepared anew on every run (a rows page: about 16 µs of each request). `? + 0`
// is no bare parameter; nothing in these plans used the value. The same holds for every statement kept
// prepared with a bound LIMIT (test/db/sqlite-bound-limit.test.ts).
const cache = new WeakMap<Database.Database, RowStatements>();

function statements(sqlite: Database.Database): RowStatements {
  let prepared = cache.get(sqlite);
  if (!prepared) {
    prepared = {
      insert: sqlite.prepare('INSERT INTO import_rows (import_id, row_index, data) VALUES (?, ?, ?)'),
      after: sqlite.prepare('SELECT row_index AS rowIndex, data FROM import_rows WHERE import_id = ? AND row_index > ? ORDER BY row_index ASC LIMIT ? + 0'),
      before: sqlite.prepare('SELECT row_index AS rowIndex, data FROM import_rows WHERE import_id = ? AND row_index < ? ORDER BY row_index DESC LIMIT ? + 0'),
      cappedAfter: sqlite
        .prepare<[number, string, number, number], string | number>(
          "SELECT CASE WHEN octet_length(data) <= ? THEN row_index || ',' || data ELSE row_index END FROM import_rows WHERE import_id = ? AND row_index > ? ORDER BY row_index ASC LIMIT ? + 0",
        )
        .pluck(),
      cappedBefore: sqlite
        .prepare<[number, string, number, number], string | number>(
          "SELECT CASE WHEN octet_length(data) <= ? THEN row_index || ',' || data ELSE row_index END FROM import_rows WHERE import_id = ? AND row_index < ? ORDER BY row_index DESC LIMIT ? + 0",
        )
        .pluck(),
      // The rows are read in order by the subquery (a co-routine: a subquery with LIMIT is never flattened into
      // an aggregate), which group_concat joins in that order (test/db/sqlite-json-page.test.ts checks both); a
      // row over its share comes out of the subquery without its text, which keeps the blob within the budget.
      jsonPage: sqlite
        .prepare<[string, number, string, number, number], JsonPageColumns>(
          `SELECT json, n, fitting, last, EXISTS (SELECT 1 FROM import_rows WHERE import_id = ? AND row_index > last)
           FROM (SELECT CAST(group_concat('{"rowIndex":' || row_index || ',"data":' || data || '}', ',') AS BLOB) AS json,
                   count(*) AS n, count(data) AS fitting, max(row_index) AS last
                 FROM (SELECT row_index, CASE WHEN octet_length(data) <= ? THEN data END AS data
                       FROM import_rows WHERE import_id = ? AND row_index > ? ORDER BY row_index ASC LIMIT ? + 0))`,
        )
        .raw(),
      // Ordered and kept within its budget as jsonPage is.
      framed: sqlite
        .prepare<[string, string, number, string, number, number], FramedColumns>(
          `SELECT CAST(group_concat(? || data || ?, '') AS BLOB), count(*), count(data), max(row_index)
           FROM (SELECT row_index, CASE WHEN octet_length(data) <= ? THEN data END AS data
                 FROM import_rows WHERE import_id = ? AND row_index > ? ORDER BY row_index ASC LIMIT ? + 0)`,
        )
        .raw(),
    };
    cache.set(sqlite, prepared);
  }
  return prepared;
}

const EMPTY = new Uint8Array(0);

/**
 * The first `limit` rows past `from` as a rows page's JSON, built by SQLite as one blob: better-sqlite3 then
 * makes one Buffer instead of a string per row, and the answer writes those bytes as they are (a rows page of
 * strings was also encoded back to UTF-8 on its way out). Undefined when a row is over floor(maxBytes / limit)
 * bytes (the page is then left out of the blob, and the caller reads it with readRowChunk).
 */
export function readRowJsonPage(sqlite: Database.Database, importId: string, from: number, limit: number, maxBytes: number): RowJsonPage | undefined {
  const share = Math.floor(maxBytes / limit);
  const [json, count, fitting, last, more] = statements(sqlite).jsonPage.get(importId, share, importId, from, limit)!;
  if (fitting < count) return undefined;
  return { json: json ?? EMPTY, count, lastRowIndex: last ?? undefined, hasMore: more === 1 };
}

/**
 * The first `limit` rows past `from`, each as `frame.before`, its text, `frame.after`, joined by SQLite into one
 * blob (RowStore.framedChunk): an export's chunk of 1 000 rows was a string per row, joined, then encoded back
 * to UTF-8 on its way out (100 000 rows: 300-410 ms in process, 50-80 ms framed). Undefined when a row is over
 * floor(maxBytes / limit) bytes.
 */
export function readFramedRows(sqlite: Database.Database, importId: string, from: number, limit: number, maxBytes: number, frame: RowFrame): FramedRows | undefined {
  const [bytes, count, fitting, last] = statements(sqlite).framed.get(frame.before, frame.after, Math.floor(maxBytes / limit), importId, from, limit)!;
  if (fitting < count) return undefined;
  return { bytes: bytes ?? EMPTY, count, lastRowIndex: last ?? undefined };
}

/** Inserts rows `first`, `first + 1`, ... of an import; the caller owns the transaction. */
export function insertRowTexts(sqlite: Database.Database, importId: string, first: number, texts: readonly string[]): void {
  const insert = statements(sqlite).insert;
  for (let i = 0; i < texts.length; i++) insert.run(importId, first + i, texts[i]!);
}

// A chunk is read in one call (about a third cheaper than stepping a statement iterator row by row) when rows
// of up to BATCH_ROW_BYTES each keep it within its byte budget (a rows page: 101 rows of 41 KiB; an export's
// 1 000-row chunks are not); a row over its share of the budget comes back without its text, and the chunk
// goes on from that row with the iterator, which stops reading once the budget is spent. That call plucks one
// text per row, `rowIndex,data`, split here: better-sqlite3 builds a row of two columns as an array through
// its C++ API, which cost more than SQLite reading the rows (a rows page: 27 of 58 µs in a loop).
const BATCH_ROW_BYTES = 16 * 1024;

/**
 * Up to `limit` rows past `from` in row order (ascending: rowIndex > from; descending: rowIndex < from),
 * and fewer when they are large: once the rows read hold `maxBytes` characters of JSON, one more row is
 * read and the chunk ends (so a caller can tell that more follow). Reads a whole chunk at once, so no
 * statement iterator stays open between chunks.
 */
export function readRowChunk(
  sqlite: Database.Database,
  importId: string,
  direction: 'asc' | 'desc',
  from: number,
  limit: number,
  maxBytes: number,
): StoredRow[] {
  const statement = statements(sqlite);
  const rows: StoredRow[] = [];
  let bytes = 0;
  /** Adds a row; false once the chunk is full. */
  const take = (row: StoredRow) => {
    rows.push(row);
    if (bytes >= maxBytes) return false;
    bytes += row.data.length;
    return true;
  };
  let next = from;
  const share = Math.floor(maxBytes / limit);
  if (share >= BATCH_ROW_BYTES) {
    const batch = (direction === 'asc' ? statement.cappedAfter : statement.cappedBefore).all(share, importId, from, limit);
    for (const text of batch) {
      if (typeof text === 'number') break;
      const comma = text.indexOf(',');
      const rowIndex = Number(text.slice(0, comma));
      if (!take({ rowIndex, data: text.slice(comma + 1) })) return rows;
      next = rowIndex;
    }
    if (rows.length === batch.length) return rows;
  }
  for (const row of (direction === 'asc' ? statement.after : statement.before).iterate(importId, next, limit - rows.length)) {
    if (!take(row)) break;
  }
  return rows;
}
