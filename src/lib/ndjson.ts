import type { RowEncoder } from './row-encoder';

/** One row object a line. Stored rows are compact JSON (no raw newlines), so they are written as they are. */
export function createNdjsonEncoder(): RowEncoder {
  return {
    contentType: 'application/x-ndjson',
    extension: 'ndjson',
    head: () => '',
    chunk(rows) {
      let text = '';
      for (const row of rows) text += `${row.data}\n`;
      return text;
    },
    tail: () => '',
  };
}
