import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { compileCell, DeclaredSchema, type Cell } from '../../src/rules';

/** The stored value of `value` under `field`, or `!code` for an error. */
function read(field: Record<string, unknown>, value: string | number | boolean): Cell | string {
  const parsed = DeclaredSchema.parse({ fields: [{ key: 'f', ...field }] });
  const result = compileCell(parsed.fields[0]!).check(value);
  return result !== null && typeof result === 'object' ? `!${result.code}` : result;
}

type Case = [field: Record<string, unknown>, value: string | number | boolean, expected: Cell | string];

const cases: Record<string, Case[]> = {
  string: [
    [{}, '00123', '00123'], // leading zeros kept
    [{}, 42, 42],
    [{ transforms: ['trim'] }, '  a  b ', 'a  b'],
    [{ transforms: ['collapseWhitespace'] }, '  a \t b ', 'a b'],
    [{ transforms: ['lowercase'] }, 'ÀbC', 'àbc'],
    [{ transforms: ['uppercase'] }, 'straße', 'STRASSE'],
    [{ transforms: ['titlecase'] }, "jean-luc o'neil", "Jean-Luc O'Neil"],
    [{ transforms: ['trim', 'uppercase'] }, ' ab ', 'AB'],
    [{ minLength: 3 }, 'ab', '!min_length'],
    [{ maxLength: 3 }, 'abcd', '!max_length'],
    [{ maxLength: 3 }, 'abc', 'abc'],
    [{ pattern: '^[A-Z]{2}\\d+$' }, 'AB12', 'AB12'],
    [{ pattern: '^[A-Z]{2}\\d+$' }, 'ab12', '!pattern'],
    [{ pattern: '\\d' }, 'x1y', 'x1y'], // unanchored: anywhere, as JSON Schema
  ],
  number: [
    [{ type: 'number' }, '1.234', 1.234],
    [{ type: 'number', numberFormat: 'us' }, '1,234.5', 1234.5],
    [{ type: 'number', numberFormat: 'eu' }, '1.234', 1234],
    [{ type: 'number', numberFormat: 'eu' }, '1.234,5', 1234.5],
    [{ type: 'number', numberFormat: 'eu' }, '1 234,5', 1234.5],
    [{ type: 'number', numberFormat: 'auto' }, '1.234', '!ambiguous_number'],
    [{ type: 'number', numberFormat: 'auto' }, '1,234', '!ambiguous_number'],
    [{ type: 'number', numberFormat: 'auto' }, '1.5', 1.5],
    [{ type: 'number', numberFormat: 'auto' }, '1,5', 1.5],
    [{ type: 'number', numberFormat: 'auto' }, '1.234,5', 1234.5],
    [{ type: 'number', numberFormat: 'us' }, '1,23', '!type'],
    [{ type: 'number' }, 'abc', '!type'],
    [{ type: 'number' }, true, '!type'],
    [{ type: 'number' }, '+007', 7],
    [{ type: 'number' }, -3.5, -3.5],
    [{ type: 'number', decimals: 2 }, '1.234', '!decimals'],
    [{ type: 'number', decimals: 2 }, '1.23', 1.23],
    [{ type: 'number', min: 0 }, '-1', '!min'],
    [{ type: 'number', max: 10 }, '11', '!max'],
    [{ type: 'number', min: 0, max: 10 }, '10', 10],
    [{ type: 'number' }, '12345678901234567890', '12345678901234567890'], // exact, as its digits
    [{ type: 'number' }, '1e400', '!type'],
  ],
  integer: [
    [{ type: 'integer' }, '42', 42],
    [{ type: 'integer' }, '42.0', 42],
    [{ type: 'integer' }, '42.5', '!type'],
    [{ type: 'integer' }, '12345678901234567890', '12345678901234567890'],
    [{ type: 'integer' }, '-98765432109876543210', '-98765432109876543210'],
    [{ type: 'integer' }, '1.0000000000000000001', '!type'],
    [{ type: 'integer' }, 7, 7],
    [{ type: 'integer' }, 7.5, '!type'],
    [{ type: 'integer', numberFormat: 'eu' }, '1.000', 1000],
  ],
  boolean: [
    [{ type: 'boolean' }, 'Yes', true],
    [{ type: 'boolean' }, 'false', false],
    [{ type: 'boolean' }, '0', false],
    [{ type: 'boolean' }, false, false],
    [{ type: 'boolean' }, 'maybe', '!type'],
    [{ type: 'boolean' }, 2, '!type'],
  ],
  date: [
    [{ type: 'date' }, '2025-03-04', '2025-03-04'],
    [{ type: 'date' }, '03/04/2025', '!type'], // not a declared format
    [{ type: 'date', formats: ['DD/MM/YYYY'] }, '03/04/2025', '2025-04-03'],
    [{ type: 'date', formats: ['MM/DD/YYYY'] }, '03/04/2025', '2025-03-04'],
    [{ type: 'date', formats: ['MM/DD/YYYY'] }, '2025-03-04', '2025-03-04'], // ISO 8601 whatever the formats (what the importer sends)
    [{ type: 'datetime', formats: ['DD/MM/YYYY', 'MM/DD/YYYY'] }, '2025-03-04T10:30:00Z', '2025-03-04T10:30:00.000Z'],
    [{ type: 'date', formats: ['DD/MM/YYYY', 'MM/DD/YYYY'] }, '03/04/2025', '!ambiguous_date'],
    [{ type: 'date', formats: ['DD/MM/YYYY', 'MM/DD/YYYY'] }, '25/04/2025', '2025-04-25'],
    [{ type: 'date', formats: ['DD/MM/YYYY', 'MM/DD/YYYY'] }, '04/04/2025', '2025-04-04'],
    [{ type: 'date', formats: ['DD.MM.YYYY'] }, '03.04.2025', '2025-04-03'],
    [{ type: 'date', formats: ['DD-MM-YYYY'] }, '03-04-2025', '2025-04-03'],
    [{ type: 'date', formats: ['YYYY/MM/DD'] }, '2025/04/03', '2025-04-03'],
    [{ type: 'date' }, '2025-02-29', '!type'],
    [{ type: 'date' }, '2024-02-29', '2024-02-29'],
    [{ type: 'date' }, '2025-13-01', '!type'],
    [{ type: 'date' }, 45720, '!type'], // a serial is no date unless excel is declared
    [{ type: 'date', formats: ['excel'] }, 45720, '2025-03-04'],
    [{ type: 'date', formats: ['excel'] }, '45720', '2025-03-04'],
    [{ type: 'date', formats: ['excel'] }, 1, '1900-01-01'],
    [{ type: 'date', formats: ['excel'] }, 59, '1900-02-28'],
    [{ type: 'date', formats: ['excel'] }, 60, '!type'], // Excel's 29 February 1900
    [{ type: 'date', formats: ['excel'] }, 61, '1900-03-01'],
    [{ type: 'date', formats: ['excel'] }, 45720.5, '!type'],
    [{ type: 'date' }, '2025-03-04T10:00', '!type'],
    [{ type: 'date' }, '+1 202 555 0143', '!type'],
  ],
  datetime: [
    [{ type: 'datetime' }, '2025-03-04T10:30', '2025-03-04T10:30:00.000Z'],
    [{ type: 'datetime' }, '2025-03-04 10:30:15.5+02:00', '2025-03-04T08:30:15.500Z'],
    [{ type: 'datetime' }, '2025-03-04', '2025-03-04T00:00:00.000Z'],
    [{ type: 'datetime' }, '2025-03-04T25:00', '!type'],
    [{ type: 'datetime', formats: ['excel'] }, 45720.5, '2025-03-04T12:00:00.000Z'],
    [{ type: 'datetime', formats: ['DD/MM/YYYY'] }, '03/04/2025 08:05', '2025-04-03T08:05:00.000Z'],
  ],
  email: [
    [{ type: 'email' }, ' ada@example.com ', 'ada@example.com'],
    [{ type: 'email' }, 'ada@example', '!type'],
    [{ type: 'email' }, 'a b@example.com', '!type'],
  ],
  phone: [
    [{ type: 'phone' }, '+1 202-555-0143', '+12025550143'],
    [{ type: 'phone', defaultCountry: 'US' }, '(202) 555-0143', '+12025550143'],
    [{ type: 'phone', defaultCountry: 'FR' }, '01 42 68 53 00', '+33142685300'],
    [{ type: 'phone' }, '01 42 68 53 00', '!type'], // no country to read it in
    [{ type: 'phone', defaultCountry: 'US' }, '2025-03-04', '!type'], // a date, not a phone
    [{ type: 'phone', defaultCountry: 'US' }, '03/04/2025', '!type'],
    [{ type: 'phone', defaultCountry: 'US' }, '1-800-FLOWERS', '!type'],
    [{ type: 'phone', defaultCountry: 'US' }, 2025550143, '+12025550143'],
  ],
  url: [
    [{ type: 'url' }, 'https://example.com/a?b=1', 'https://example.com/a?b=1'],
    [{ type: 'url' }, 'javascript:alert(1)', '!type'],
    [{ type: 'url' }, 'example.com', '!type'],
    [{ type: 'url' }, 'https://', '!type'],
  ],
  enum: [
    [{ type: 'enum', options: [{ value: 'CI', label: "Côte d'Ivoire", alternatives: ['Ivory Coast'] }] }, "cote d'ivoire", 'CI'],
    [{ type: 'enum', options: [{ value: 'CI', label: "Côte d'Ivoire", alternatives: ['Ivory Coast'] }] }, ' IVORY  coast ', 'CI'],
    [{ type: 'enum', options: [{ value: 'CI', label: "Côte d'Ivoire" }] }, 'ci', 'CI'],
    [{ type: 'enum', options: [{ value: 'CI' }] }, 'Ivory Coast', '!enum'],
    [{ type: 'enum', enum: ['red', 'green'] }, 'Green', 'green'], // the importer's first dialect
    [{ type: 'enum', options: ['1', '2'] }, 2, '2'],
  ],
};

describe('rules: one cell', () => {
  for (const [type, list] of Object.entries(cases)) {
    it(`${type}: ${list.length} cases`, () => {
      for (const [field, value, expected] of list) {
        assert.deepEqual(read(field, value), expected, `${JSON.stringify(field)} ${JSON.stringify(value)}`);
      }
    });
  }

  it('a pattern with catastrophic backtracking elsewhere, (a+)+$, answers for a 100 000-character cell', () => {
    const cell = `${'a'.repeat(100_000)}!`;
    assert.equal(read({ pattern: '(a+)+$' }, cell), '!pattern');
    assert.equal(read({ pattern: '^(a|aa)+$' }, 'a'.repeat(100_000)), 'a'.repeat(100_000));
  });

  it('a pattern error says the template’s errorMessage', () => {
    const field = DeclaredSchema.parse({ fields: [{ key: 'sku', pattern: '^S', errorMessage: 'SKUs start with S' }] }).fields[0]!;
    assert.deepEqual(compileCell(field).check('X1'), { key: 'sku', code: 'pattern', message: 'SKUs start with S', params: { field: 'sku', errorMessage: 'SKUs start with S' } });
  });
});

describe('rules: a phone field remembers the numbers it has read', () => {
  // The memo keeps 4 096 distinct texts at a time: 10 000 cells cross it twice, in a column that repeats
  // (kept) and in one that does not (dropped), and every cell reads as libphonenumber-js reads it alone.
  const columns: Record<string, (i: number) => string> = {
    repeating: (i) => [`(212) 555-${String(i % 40).padStart(4, '0')}`, '+33 1 42 68 53 00', '03/04/2025', `212-220-${String(i % 9000).padStart(4, '0')}`][i % 4]!,
    distinct: (i) => (i % 7 === 0 ? `999-${String(i).padStart(7, '0')}` : `(212) ${220 + Math.floor(i / 10_000)}-${String(i % 10_000).padStart(4, '0')}`),
  };
  for (const [name, text] of Object.entries(columns)) {
    it(`a ${name} column`, () => {
      const field = DeclaredSchema.parse({ fields: [{ key: 'phone', type: 'phone', defaultCountry: 'US' }] }).fields[0]!;
      const cell = compileCell(field);
      for (let i = 0; i < 10_000; i++) {
        const parsed = /^[\d\s()+\-.]+$/.test(text(i)) ? parsePhoneNumberFromString(text(i), 'US') : undefined;
        const expected = parsed?.isValid() === true ? parsed.number : 'type';
        const stored = cell.check(text(i));
        assert.equal(typeof stored === 'object' && stored !== null ? stored.code : stored, expected, `${i}: ${text(i)}`);
      }
    });
  }
});
