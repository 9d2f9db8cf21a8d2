import type { RowTexts } from '../store/row-texts';

/**
 * Rows of import_rows (import_id text, row_index integer, data text, errors text) in COPY's binary format. Unlike the text
 * format, nothing is escaped or parsed back: each value is its length and its bytes, so neither this process
 * nor the server scans a row's JSON for special characters, and the server reads row_index as 4 bytes.
 * https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.4
 */

/** Signature, flags (no OIDs) and an empty header extension. */
export const BINARY_COPY_HEADER = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]);

/** A field count of -1: the end of the data. */
export const BINARY_COPY_TRAILER = Buffer.from([0xff, 0xff]);

/** Field count (2 bytes), then four length words (4 bytes each) and the row index (4 bytes). */
const FIXED_BYTES = 2 + 4 + 4 + 4 + 4 + 4;

/**
 * Encodes rows `first`, `first + 1`, ... of one import; `importId` given as its UTF-8 bytes. Rows that come
 * as UTF-8 (from the parse worker) are copied byte range by byte range; strings are encoded here.
 */
export function encodeRows(importId: Buffer, first: number, rows: RowTexts): Buffer {
  const perRow = FIXED_BYTES + importId.length;
  if ('ends' in rows) {
    const { ends } = rows;
    const utf8 = Buffer.from(rows.utf8.buffer, rows.utf8.byteOffset, rows.utf8.byteLength);
    const out = Buffer.allocUnsafe((ends.length === 0 ? 0 : ends[ends.length - 1]!) + ends.length * perRow);
    let at = 0;
    let start = 0;
    for (let i = 0; i < ends.length; i++) {
      const end = ends[i]!;
      at = writeRowHead(out, at, importId, first + i, end - start);
      at += utf8.copy(out, at, start, end);
      at = out.writeInt32BE(-1, at);
      start = end;
    }
    return out.subarray(0, at);
  }
  const texts = 'errors' in rows ? rows.texts : rows;
  const errors = 'errors' in rows ? rows.errors : undefined;
  // A UTF-16 code unit is at most 3 bytes of UTF-8: the bound is exact enough to allocate once per slice.
  let bound = 0;
  for (let i = 0; i < texts.length; i++) bound += texts[i]!.length + (errors?.[i]?.length ?? 0);
  const out = Buffer.allocUnsafe(bound * 3 + texts.length * perRow);
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    at = writeText(out, writeRowHead(out, at, importId, first + i, 0) - 4, texts[i]!);
    const error = errors?.[i];
    at = error == null ? out.writeInt32BE(-1, at) : writeText(out, at, error);
  }
  return out.subarray(0, at);
}

/** A text field: its length word (at `lengthAt`) and its UTF-8 bytes; returns where the next field goes. */
function writeText(out: Buffer, lengthAt: number, text: string): number {
  const length = out.write(text, lengthAt + 4, 'utf8');
  out.writeInt32BE(length, lengthAt);
  return lengthAt + 4 + length;
}

/** A tuple's field count, import id, row index and the length word of its data; returns where the data goes (errors, -1 for NULL, follow it). */
function writeRowHead(out: Buffer, at: number, importId: Buffer, rowIndex: number, dataLength: number): number {
  at = out.writeInt16BE(4, at);
  at = out.writeInt32BE(importId.length, at);
  at += importId.copy(out, at);
  at = out.writeInt32BE(4, at);
  at = out.writeInt32BE(rowIndex, at);
  return out.writeInt32BE(dataLength, at);
}
