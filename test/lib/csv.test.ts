import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { createCsvEncoder } from '../../src/lib/csv';

// The export's CSV is written by hand (its work follows the cells a row has, not the columns a schema
// declares); csv-stringify, with the options the export used before, is the reference it must equal.
const REFERENCE_OPTIONS = { record_delimiter: '\r\n', quoted_match: /[\r\n]/ } as const;

function reference(columns: string[], safe: boolean, rows: { data: string }[]): string {
  const guard = (text: string) => (safe && /^[=+\-@]/.test(text) ? `'${text}` : text);
  if (columns.length === 0) return '';
  const records = rows.map((row) => {
    const cells = JSON.parse(row.data) as Record<string, unknown>;
    return columns.map((key) => {
      const value = Object.hasOwn(cells, key) ? cells[key] : null;
      return typeof value === 'string' ? guard(value) : value === null || value === undefined ? '' : String(value);
    });
  });
  return stringify([columns.map(guard)], REFERENCE_OPTIONS) + (records.length === 0 ? '' : stringify(records, REFERENCE_OPTIONS));
}

const key = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('__proto__', 'constructor', '1', '0', 'a,b', '"q"', '=x'));
const value = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('=1', '-x', '@a', 'a\nb', 'a\rb', ' ', '"', ','),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);

describe('CSV encoder', () => {
  it('equals csv-stringify on generated rows, columns and safe mode', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.tuple(key, value), { maxLength: 5 }), { maxLength: 6 }), fc.array(key, { maxLength: 3 }), fc.boolean(), (pairs, extra, safe) => {
        const rows = pairs.map((row) => {
          const cells: Record<string, unknown> = {};
          for (const [k, v] of row) Object.defineProperty(cells, k, { value: v, enumerable: true, writable: true, configurable: true });
          return { data: JSON.stringify(cells) };
        });
        // Schema columns that no row has come first, as in an export, then the keys rows hold.
        const columns = [...new Set([...extra, ...rows.flatMap((row) => Object.keys(JSON.parse(row.data)))])];
        const encoder = createCsvEncoder({ columns, safe });
        assert.equal(encoder.head() + encoder.chunk(rows) + encoder.tail(), reference(columns, safe, rows));
      }),
      { numRuns: 3000 },
    );
  });

  it('prints integers beyond 2^53 as stored', () => {
    const encoder = createCsvEncoder({ columns: ['id', 'n'], safe: true });
    assert.equal(encoder.chunk([{ data: '{"n":-12345678901234567890,"id":12345678901234567890}' }]), '12345678901234567890,-12345678901234567890\r\n');
  });
});
