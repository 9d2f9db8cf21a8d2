import type Database from 'better-sqlite3';

// Rows are the hot path: raw better-sqlite3 statements, prepared once per connection and reused.

export interface StoredRow {
  rowIndex: number;
  /** The row object as stored: JSON text, spliced into responses without parsing. */
  data: string;
}

interface RowStatements {
  insert: Database.Statement<[string, number, string, string | null]>;
  after: Database.Statement<[string, number, number], StoredRow>;
  before: Database.Statement<[string, number, number], StoredRow>;
  /** Per row `rowIndex,data` as one text, or the bare rowIndex when the row's JSON is over the first parameter's bytes (plucked). */
  cappedAfter: Database.Statement<[number, string, number, number], string | number>;
  cappedBefore: Database.Statement<[number, string, number, number], string | number>;
}

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
      insert: sqlite.prepare('INSERT INTO import_rows (import_id, row_index, data, errors) VALUES (?, ?, ?, ?)'),
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
    };
    cache.set(sqlite, prepared);
  }
  return prepared;
}

/** Inserts rows `first`, `first + 1`, ... of an import, with their errors when some are invalid; the caller owns the transaction. */
export function insertRowTexts(sqlite: Database.Database, importId: string, first: number, texts: readonly string[], errors?: readonly (string | null)[]): void {
  const insert = statements(sqlite).insert;
  if (errors === undefined) for (let i = 0; i < texts.length; i++) insert.run(importId, first + i, texts[i]!, null);
  else for (let i = 0; i < texts.length; i++) insert.run(importId, first + i, texts[i]!, errors[i]!);
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
