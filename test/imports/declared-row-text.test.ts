import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { rowJsonText } from '../../src/lib/exact-json';
import { compileRules, RowValidator, type CompiledRules } from '../../src/rules';
import { CellStatsCollector } from '../../src/services/imports/cell-stats';
import { validateRows } from '../../src/services/imports/validate-rows';

// validateRows reads most rows' declared cells straight from their texts and writes back only the cells that
// changed (DeclaredRowText). The reference here is the general path: each row parsed, checked as an object
// (RowValidator.check), stored as rowJsonText prints it, its members counted in the statistics.

const FIELDS = [
  { key: 'id', type: 'integer', unique: true },
  { key: 'name', transforms: ['trim', 'uppercase'], default: 'none' },
  { key: 'when', type: 'date', formats: ['DD/MM/YYYY'] },
  { key: 'ok', type: 'boolean', required: true },
  { key: '__proto__', type: 'number' },
  { key: 'n', type: 'integer', default: 0 },
  { key: 'q"k', type: 'enum', options: [{ value: 'A', label: 'Alpha' }, 'B'] },
];

const SCHEMAS = [
  { fields: FIELDS },
  { fields: FIELDS, extraColumns: 'drop' },
  { fields: FIELDS, onInvalid: 'discard', uniqueTogether: [['name', 'ok']] },
  { fields: FIELDS.map((field) => ({ ...field, unique: false })), primaryKey: 'id', extraColumns: 'drop', onInvalid: 'discard' },
];

/** Cells as JSON literals: texts with escapes, blanks, numbers (one past 2^53, one of 17 digits), booleans, null. */
const LITERALS = [
  '"1"', '" 7 "', '"x"', '""', '"  "', '" ann\\t"', '"a\\"b"', '"\\u0001"', '"é ü"', '"03/04/2025"', '"31/02/2025"', '"yes"',
  '"alpha"', '"B"', '"C"', '12', '-3', '2.5', '0.30000000000000004', '12345678901234567890', '1e+21', 'true', 'false', 'null',
];
const KEYS = ['id', 'name', 'when', 'ok', '__proto__', 'n', 'q"k', 'extra', 'x\\y', '\u00e9'];

const rowText = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...LITERALS)), { selector: ([key]) => key, maxLength: KEYS.length })
  .map((cells) => `{${cells.map(([key, literal]) => `${JSON.stringify(key)}:${literal}`).join(',')}}`);

/** The general path's stored texts, their errors and statistics. */
function reference(rules: CompiledRules, texts: string[]) {
  const validator = new RowValidator(rules);
  const stats = new CellStatsCollector();
  const stored: string[] = [];
  const errors: (string | null)[] = [];
  for (const text of texts) {
    const checked = validator.check(JSON.parse(text) as Record<string, unknown>);
    if (checked.errors !== undefined && rules.onInvalid === 'discard') continue;
    stored.push(checked.changed ? rowJsonText(checked.row, text) : text);
    errors.push(checked.errors === undefined ? null : JSON.stringify(checked.errors.map(({ key, code, message }) => ({ key, code, message }))));
    for (const key in checked.row) stats.add(key, checked.row[key] as string | number | boolean | null);
  }
  return { stored, errors, stats: stats.result(stored.length) };
}

async function validated(rules: CompiledRules, texts: string[]) {
  const slices = [texts.slice(0, 3), texts.slice(3)];
  const rows = validateRows(rules, { slices, stats: () => assert.fail('not read') });
  const stored: string[] = [];
  const errors: (string | null)[] = [];
  for await (const slice of rows.slices) {
    if (Array.isArray(slice)) {
      stored.push(...(slice as string[]));
      errors.push(...slice.map(() => null));
    } else {
      const { texts: sliceTexts, errors: sliceErrors } = slice as { texts: string[]; errors: (string | null)[] };
      stored.push(...sliceTexts);
      errors.push(...sliceErrors);
    }
  }
  return { stored, errors, stats: rows.stats() };
}

describe('imports: declared cells read from the row text', () => {
  it('stores, refuses and counts every row as the general path does', async () => {
    for (const schema of SCHEMAS) {
      const rules = compileRules(schema)!;
      await fc.assert(
        fc.asyncProperty(fc.array(rowText, { maxLength: 12 }), async (texts) => {
          assert.deepEqual(await validated(rules, texts), reference(rules, texts));
        }),
        { numRuns: 300 },
      );
    }
  });

  it('keeps a row as sent when no cell changes, and rewrites only the cells that do', async () => {
    const rules = compileRules({ fields: FIELDS })!;
    const texts = ['{"id":1,"ok":true,"name":"A","extra":"  x ","n":5}', '{"extra":1,"id":"2","ok":"yes","n":5,"name":"b"}', '{"ok":false}'];
    assert.deepEqual((await validated(rules, texts)).stored, [
      texts[0],
      '{"extra":1,"id":2,"ok":true,"n":5,"name":"B"}',
      '{"ok":false,"name":"none","n":0}',
    ]);
  });
});
