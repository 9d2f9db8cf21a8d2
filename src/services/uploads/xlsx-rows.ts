import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { stat } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Limits } from '../../config/config';
import { setOwn } from '../../lib/own-member';
import { ServiceError, validationFailed } from '../errors';
import type { UploadMetadata } from './schemas';
import { wholeCharacters } from './text-decoding';
import { READ_PIECE_BYTES } from './upload-files';
import { zipExpandedBytes } from './zip-directory';

/**
 * How far a workbook may expand: its XML is typically 5 to 20 times its size; a "zip bomb" is thousands. Below
 * EXPANSION_FLOOR any workbook passes (tiny files have large ratios).
 */
const MAX_EXPANSION = 100;
const EXPANSION_FLOOR = 64 * 1024 ** 2;

type Cell = string | number | boolean | null;

/**
 * The rows of one sheet of an XLSX workbook (metadata `sheet`, default the first), read with exceljs' streaming
 * reader: the sheet is never held whole (its shared strings are). Rows are keyed by the header row's cells
 * (metadata `headerRow`); dates become ISO 8601 text, formulas their results, rich text its text. A workbook
 * whose entries (as its zip directory says, then as they inflate), or whose cells as read, expand past
 * MAX_EXPANSION times its size is refused before it is parsed. Throws
 * validation_failed (also as rows are read).
 */
export async function xlsxRows(
  file: string,
  metadata: UploadMetadata,
  limits: Limits,
  onRead: (bytes: number) => void,
): Promise<{ name: string; rows: AsyncGenerator<Record<string, Cell>> }> {
  const { size } = await stat(file);
  const cap = Math.max(EXPANSION_FLOOR, MAX_EXPANSION * size);
  if ((await zipExpandedBytes(file, cap)) > cap) throw bomb();
  const input = createReadStream(file, { highWaterMark: READ_PIECE_BYTES });
  input.on('data', () => onRead(input.bytesRead));
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, { sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', worksheets: 'emit' });
  readWholeCharacters(reader);
  const sheets = reader[Symbol.asyncIterator]();
  const wanted = metadata.sheet;
  let sheet: ExcelJS.stream.xlsx.WorksheetReader | undefined;
  try {
    for (;;) {
      const next = await sheets.next();
      if (next.done) break;
      const name = (next.value as { name?: string }).name;
      if (wanted === undefined || name === wanted) {
        sheet = next.value;
        break;
      }
      // Another sheet: read through (its rows are not kept).
      for await (const _ of next.value);
    }
  } catch (error) {
    input.destroy();
    throw unreadable(error);
  }
  if (sheet === undefined) {
    input.destroy();
    throw validationFailed([{ path: 'metadata.sheet', message: wanted === undefined ? 'the workbook has no sheet' : `the workbook has no sheet named ${JSON.stringify(wanted)}` }]);
  }
  const name = (sheet as { name?: string }).name ?? 'Sheet1';
  return { name, rows: sheetRows(sheet, metadata.headerRow ?? 1, limits.rowBytes, cap, input) };
}

async function* sheetRows(
  sheet: ExcelJS.stream.xlsx.WorksheetReader,
  headerRow: number,
  maxRowBytes: number,
  cap: number,
  input: { destroy(): void },
): AsyncGenerator<Record<string, Cell>> {
  let header: string[] | undefined;
  let expanded = 0;
  try {
    for await (const row of sheet) {
      if (row.number < headerRow) continue;
      const values = row.values as unknown[];
      if (header === undefined) {
        header = [];
        for (let i = 1; i < values.length; i++) header[i] = String(cellValue(values[i]) ?? '');
        const named = header.filter((key) => key !== '');
        const duplicate = named.find((key, i) => named.indexOf(key) !== i);
        if (duplicate !== undefined) throw validationFailed([{ path: 'header', message: `column ${JSON.stringify(duplicate)} appears twice` }]);
        continue;
      }
      const out: Record<string, Cell> = {};
      let bytes = 0;
      let any = false;
      for (let i = 1; i < values.length; i++) {
        const key = header[i];
        const value = cellValue(values[i]);
        if (key === undefined || key === '' || value === null) continue;
        bytes += typeof value === 'string' ? value.length : 8;
        any = true;
        if (key === '__proto__') setOwn(out, key, value);
        else out[key] = value;
      }
      if (bytes > maxRowBytes) throw new ServiceError('payload_too_large', `row ${row.number} exceeds ${maxRowBytes} bytes (IMPORTD_MAX_ROW_BYTES)`);
      expanded += bytes;
      if (expanded > cap) throw bomb();
      if (any) yield out;
    }
  } catch (error) {
    throw unreadable(error);
  } finally {
    input.destroy();
  }
}

/**
 * exceljs 4.4's streaming reader decodes each inflated piece of a part's XML on its own (utils/parse-sax.js:
 * `bufferToString(chunk)`), so a multibyte character cut by a piece's end becomes two U+FFFD. This reader's
 * parts are handed to it in pieces that end on whole characters, by wrapping what its private methods
 * `_parseSharedStrings(entry)` (the shared strings: an unzipper entry stream) and `_parseWorksheet(iterator,
 * sheetNo)` (a sheet's XML, inline strings included: an async iterable of buffers) are given. Private API:
 * check both methods still exist and take these arguments when exceljs is upgraded (the test of
 * xlsx-characters fails if not).
 */
function readWholeCharacters(reader: ExcelJS.stream.xlsx.WorkbookReader): void {
  const internals = reader as unknown as {
    _parseSharedStrings(entry: AsyncIterable<Buffer>): AsyncGenerator<unknown>;
    _parseWorksheet(iterator: AsyncIterable<Buffer>, sheetNo: string): Generator<unknown>;
  };
  const sharedStrings = internals._parseSharedStrings;
  const worksheet = internals._parseWorksheet;
  // The entry is read with on('data') and pause(), so it stays a stream.
  internals._parseSharedStrings = (entry) => sharedStrings.call(reader, Readable.from(wholeCharacters(entry), { objectMode: false }));
  internals._parseWorksheet = (iterator, sheetNo) => worksheet.call(reader, wholeCharacters(iterator), sheetNo);
}

/** A cell as an import stores it. */
function cellValue(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'object') {
    const cell = value as { richText?: { text: string }[]; result?: unknown; text?: unknown; error?: string };
    if (cell.richText) return cell.richText.map((part) => part.text).join('');
    if ('result' in cell) return cellValue(cell.result);
    if (cell.text !== undefined) return cellValue(cell.text);
    if (cell.error !== undefined) return cell.error;
  }
  return String(value);
}

const bomb = () =>
  validationFailed([{ path: 'file', message: `the workbook expands to more than ${MAX_EXPANSION} times its size: refused as a possible zip bomb` }]);

function unreadable(error: unknown): unknown {
  if (error instanceof ServiceError) return error;
  return validationFailed([{ path: 'file', message: `the file is not a readable XLSX workbook: ${(error as Error).message}` }]);
}
