import type Database from 'better-sqlite3';

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
}

const cache = new WeakMap<Database.Database, RowStatements>();

function statements(sqlite: Database.Database): RowStatements {
  let prepared = cache.get(sqlite);
  if (!prepared) {
    prepared = {
      insert: sqlite.prepare('INSERT INTO import_rows (import_id, row_index, data) VALUES (?, ?, ?)'),
      after: sqlite.prepare(
        'SELECT row_index AS rowIndex, data FROM import_rows WHERE import_id = ? AND row_index > ? ORDER BY row_index ASC LIMIT ?',
      ),
      before: sqlite.prepare(
        'SELECT row_index AS rowIndex, data FROM import_rows WHERE import_id = ? AND row_index < ? ORDER BY row_index DESC LIMIT ?',
      ),
    };
    cache.set(sqlite, prepared);
  }
  return prepared;
}

/** Inserts rows `first`, `first + 1`, ... of an import; the caller owns the transaction. */
export function insertRowTexts(sqlite: Database.Database, importId: string, first: number, texts: readonly string[]): void {
  const insert = statements(sqlite).insert;
  for (let i = 0; i < texts.length; i++) insert.run(importId, first + i, texts[i]!);
}

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
  const { after, before } = statements(sqlite);
  const rows: StoredRow[] = [];
  let bytes = 0;
  for (const row of (direction === 'asc' ? after : before).iterate(importId, from, limit)) {
    rows.push(row);
    if (bytes >= maxBytes) break;
    bytes += row.data.length;
  }
  return rows;
}
