/**
 * Rows as their UTF-8 JSON texts back to back: row i is `utf8` from where row i - 1 ends (0 for the first)
 * to `ends[i]`. The form a producer on another thread hands a slice over in without a copy (both buffers
 * transferred), and the bytes PostgreSQL's COPY sends as they are.
 */
export interface Utf8Rows {
  readonly utf8: Uint8Array;
  readonly ends: Int32Array;
}

/**
 * Rows of a slice that holds invalid rows kept (onInvalid `keep`): `errors[i]` is row i's errors as JSON text
 * (`[{key, code, message}]`), null when it is valid. Only such slices carry the second array.
 */
export interface KeptRows {
  readonly texts: readonly string[];
  readonly errors: readonly (string | null)[];
}

/** A slice of checked rows as JSON text: strings (what SQLite binds), their UTF-8 bytes (what COPY sends), or strings with errors. */
export type RowTexts = readonly string[] | Utf8Rows | KeptRows;

/** The form a store's `rows.append` takes without converting it (RowStore.textForm). */
export type RowTextForm = 'strings' | 'utf8';

export function countRows(rows: RowTexts): number {
  return 'ends' in rows ? rows.ends.length : 'errors' in rows ? rows.texts.length : rows.length;
}

/** The rows as strings (decoded from their bytes when they come as Utf8Rows). */
export function rowStrings(rows: RowTexts): readonly string[] {
  if ('errors' in rows) return rows.texts;
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

/** Row i's errors (JSON text), or null: what the `errors` column stores. */
export function rowErrorsOf(rows: RowTexts): readonly (string | null)[] | undefined {
  return 'errors' in rows ? rows.errors : undefined;
}
