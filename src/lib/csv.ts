import { stringify } from 'csv-stringify/sync';
import { parseStoredRow } from './exact-json';
import type { EncoderOptions, RowEncoder } from './row-encoder';

// RFC 4180: CRLF between records, fields quoted when they hold a comma, a quote or a line break (CR or LF
// alone too: csv-stringify only looks for the record delimiter itself unless told).
const CSV_OPTIONS = { record_delimiter: '\r\n', quoted_match: /[\r\n]/ } as const;
const FORMULA_START = /^[=+\-@]/;

/** CSV with a header row of `columns`; null is an empty field, booleans are true/false. */
export function createCsvEncoder(options: EncoderOptions): RowEncoder {
  const { columns, safe } = options;
  const guard = (text: string) => (safe && FORMULA_START.test(text) ? `'${text}` : text);
  return {
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
    head: () => (columns.length === 0 ? '' : stringify([columns.map(guard)], CSV_OPTIONS)),
    chunk(rows) {
      const records = new Array<string[]>(rows.length);
      for (let r = 0; r < rows.length; r++) {
        const cells = parseStoredRow(rows[r]!.data);
        const record = new Array<string>(columns.length);
        for (let c = 0; c < columns.length; c++) {
          const key = columns[c]!;
          // hasOwn: a row without a `constructor` or `__proto__` column must not yield Object.prototype's.
          const value = Object.hasOwn(cells, key) ? cells[key] : null;
          record[c] = typeof value === 'string' ? guard(value) : value === null || value === undefined ? '' : String(value);
        }
        records[r] = record;
      }
      return records.length === 0 || columns.length === 0 ? '' : stringify(records, CSV_OPTIONS);
    },
    tail: () => '',
  };
}
