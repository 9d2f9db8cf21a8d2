import type { RowEncoder } from './row-encoder';

/** A single JSON array of row objects, written incrementally. */
export function createJsonArrayEncoder(): RowEncoder {
  let empty = true;
  return {
    contentType: 'application/json',
    extension: 'json',
    head: () => '[',
    chunk(rows) {
      let text = '';
      for (const row of rows) {
        text += empty ? row.data : `,${row.data}`;
        empty = false;
      }
      return text;
    },
    tail: () => ']',
  };
}
