import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { rowJsonText } from '../../src/lib/exact-json';

/** What the row checks store for a row parsed from `text` (one the canonical scan left to them). */
const stored = (text: string) => rowJsonText(JSON.parse(text) as object, text);

/** A JSON string literal with every code unit escaped as \\uXXXX. */
const escapeAll = (text: string) => `"${Array.from({ length: text.length }, (_, i) => `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}"`;

const cell = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('', '"', '\\', '\n\t\r\b\f', '\u0001\u001f\u007f', '\u2028', 'a":b', '\ud800', '\udc00x', '😀'),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
  fc.boolean(),
  fc.constant(null),
);
const key = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('__proto__', 'constructor', '0', '1', '01', '-1', '4294967295', '1.5', 'a":'));
const row = fc.dictionary(key, cell, { maxKeys: 12 });
describe('rowJsonText of a parsed row', () => {
  it('is what JSON.stringify prints, whatever the text of the row was (fast-check)', () => {
    fc.assert(
      fc.property(row, (value) => {
        const text = JSON.stringify(value);
        assert.equal(stored(text), text);
        // The same row written otherwise: spaced out, every character escaped, the keys doubled.
        const spaced = JSON.stringify(value, null, 1);
        assert.equal(stored(spaced), text);
        const escaped = `{${Object.keys(value).map((k) => `${escapeAll(k)}:${typeof value[k] === 'string' ? escapeAll(value[k]) : JSON.stringify(value[k])}`).join(',')}}`;
        assert.equal(stored(escaped), text);
        const doubled = `{${Object.keys(value).map((k) => `${JSON.stringify(k)}:"first",${JSON.stringify(k)}:${JSON.stringify(value[k])}`).join(',')}}`;
        assert.equal(stored(doubled), text);
      }),
      { numRuns: 3000 },
    );
  });

  const rewritten: [string, string][] = [
    ['{"a": 1}', '{"a":1}'],
    ['{"a":1.50}', '{"a":1.5}'],
    ['{"a":1e3}', '{"a":1000}'],
    ['{"a":1E-7}', '{"a":1e-7}'],
    ['{"a":0.0000001}', '{"a":1e-7}'],
    ['{"a":-0}', '{"a":0}'],
    ['{"a":-0.0}', '{"a":0}'],
    ['{"a":0.1000000000000000055511151231257827}', '{"a":0.1}'],
    ['{"a":1,"a":2}', '{"a":2}'],
    ['{"a":1,"b":2,"a":3}', '{"a":3,"b":2}'],
    ['{"b":1,"2":2,"1":3}', '{"1":3,"2":2,"b":1}'],
    ['{"a":"\\/"}', '{"a":"/"}'],
    ['{"a":"\\u00e9\\u0041"}', '{"a":"éA"}'],
    ['{"a":"\\u001F"}', '{"a":"\\u001f"}'],
    ['{"a":"\\uD800"}', '{"a":"\\ud800"}'],
    ['{"a":"\ud800"}', '{"a":"\\ud800"}'],
    ['{"a":"x\\":1","b":2}', '{"a":"x\\":1","b":2}'],
    ['{"\\\\":0}', '{"\\\\":0}'],
  ];
  for (const [text, expected] of rewritten) {
    it(`stores ${text} as JSON.stringify prints it: ${expected}`, () => {
      assert.equal(stored(text), expected);
      assert.equal(expected, JSON.stringify(JSON.parse(text)));
    });
  }

  it('keeps integers beyond 2^53 as sent, and numbers of 15 digits as they are', () => {
    assert.equal(stored('{"a":12345678901234567890,"b":1.50}'), '{"a":12345678901234567890,"b":1.5}');
    assert.equal(stored('{"a":-9007199254740993}'), '{"a":-9007199254740993}');
    assert.equal(stored('{"a":100000000000000000000000}'), '{"a":100000000000000000000000}');
    assert.equal(stored('{"a":999999999999999,"b":0.00000123456789}'), '{"a":999999999999999,"b":0.00000123456789}');
  });
});
