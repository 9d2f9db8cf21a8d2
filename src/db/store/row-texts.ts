/**
 * Rows as their UTF-8 JSON texts back to back: row i is `utf8` from where row i - 1 ends (0 for the first)
 * to `ends[i]`. The form a producer on another thread hands a slice over in without a copy (both buffers
 * transferred), and the bytes PostgreSQL's COPY sends as they are.
 */
export interface Utf8Rows {
  readonly utf8: Uint8Array;
  readonly ends: Int32Array;
}

/** A slice of checked rows as JSON text: strings (what SQLite binds) or their UTF-8 bytes (what COPY sends). */
export type RowTexts = readonly string[] | Utf8Rows;

/** The form a store's `rows.append` takes without converting it (RowStore.textForm). */
export type RowTextForm = 'strings' | 'utf8';

export function countRows(rows: RowTexts): number {
  return 'ends' in rows ? rows.ends.length : rows.length;
}

/** The rows as strings (decoded from their bytes when they come as Utf8Rows). */
export function rowStrings(rows: RowTexts): readonly string[] {
  if (!('ends' in rows)) return rows;
  const bytes = Buffer.from(rows.utf8.buffer, rows.utf8.byteOffset, rows.utf8.byteLength);
  const texts = new Array<string>(rows.ends.length);
  let start = 0;
  for (let i = 0; i < texts.length; i++) {
    texts[i] = bytes.toString('utf8', start, rows.ends[i]);
    start = rows.ends[i]!;
  }
  return texts;
}
