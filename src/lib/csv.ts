import { parseStoredRow } from './exact-json';
import { readFlatObject, type FlatValue } from './flat-json';
import type { EncoderOptions, RowEncoder } from './row-encoder';

// RFC 4180: CRLF between records; a field is quoted (its quotes doubled) when it holds a comma, a quote or
// a line break (CR or LF alone too). Written by hand rather than by a CSV library so a record costs work
// in proportion to the cells the row actually has: the empty cells between them are runs of commas,
// whatever the number of columns an import's schema declares.
const NEEDS_QUOTES = /[",\r\n]/;
// TAB and CR too: some spreadsheet programs skip them and read the formula that follows.
const FORMULA_START = /^[=+\-@\t\r]/;

/** CSV with a header row of `columns`; null is an empty field, booleans are true/false. */
export function createCsvEncoder(options: EncoderOptions): RowEncoder {
  const { columns, safe } = options;
  const guard = (text: string) => (safe && FORMULA_START.test(text) ? `'${text}` : text);
  const position = new Map<string, number>();
  columns.forEach((key, i) => position.set(key, i));
  const commas = (n: number) => (n <= 0 ? '' : n === 1 ? ',' : ','.repeat(n));
  const cellOf = (value: unknown) => field(typeof value === 'string' ? guard(value) : String(value));
  // The common case, read from the stored text without JSON.parse: a flat row whose known keys come in column
  // order, each once (a key met again or out of order stops the read, and the row takes the parsed path).
  let record = '';
  let column = 0;
  let last = -1;
  const onMember = (key: string, value: FlatValue): boolean => {
    const at = position.get(key);
    if (at === undefined) return true;
    if (at <= last) return false;
    last = at;
    if (value === null) return true;
    const cell = cellOf(value);
    if (cell === '') return true;
    record += commas(at - column) + cell;
    column = at;
    return true;
  };
  const flat = (text: string): string | undefined => {
    record = '';
    column = 0;
    last = -1;
    return readFlatObject(text, onMember) ? `${record}${commas(columns.length - 1 - column)}\r\n` : undefined;
  };
  // Rows nearly always hold their keys in column order (the order the first row showed them in): the
  // record is then written as the cells come, with nothing to allocate per cell.
  const inOrder = (values: Record<string, unknown>): string | undefined => {
    let record = '';
    let column = 0;
    for (const key in values) {
      const at = position.get(key);
      const value = values[key];
      if (at === undefined || value === null) continue;
      if (at < column) return undefined;
      const cell = cellOf(value);
      if (cell === '') continue;
      record += commas(at - column) + cell;
      column = at;
    }
    return `${record}${commas(columns.length - 1 - column)}\r\n`;
  };
  const sorted = (values: Record<string, unknown>): string => {
    const cells: [number, string][] = [];
    for (const key in values) {
      const at = position.get(key);
      const value = values[key];
      if (at === undefined || value === null) continue;
      const cell = cellOf(value);
      if (cell !== '') cells.push([at, cell]);
    }
    cells.sort((a, b) => a[0] - b[0]);
    let record = '';
    let column = 0;
    for (const [at, cell] of cells) {
      record += commas(at - column) + cell;
      column = at;
    }
    return `${record}${commas(columns.length - 1 - column)}\r\n`;
  };
  return {
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
    head: () => (columns.length === 0 ? '' : `${columns.map((key) => field(guard(key))).join(',')}\r\n`),
    chunk(rows) {
      if (columns.length === 0) return '';
      let text = '';
      for (const row of rows) text += flat(row.data) ?? inOrder(parseStoredRow(row.data)) ?? sorted(parseStoredRow(row.data));
      return text;
    },
    tail: () => '',
  };
}

function field(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
