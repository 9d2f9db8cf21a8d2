import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createCsvEncoder } from '../../src/lib/csv';
import { parseStoredRow } from '../../src/lib/exact-json';
import { readFlatObject, type FlatValue } from '../../src/lib/flat-json';

/** The members readFlatObject hands on, in order; undefined when it declined the text. */
function flatMembers(text: string): [string, FlatValue][] | undefined {
  const members: [string, FlatValue][] = [];
  return readFlatObject(text, (key, value) => (members.push([key, value]), true)) ? members : undefined;
}

/** What the JSON.parse path gives the CSV encoder: parseStoredRow's members, in the text's key order. */
function parsedMembers(text: string): [string, unknown][] {
  const cells = parseStoredRow(text);
  const order = [...text.matchAll(/"((?:[^"\\]|\\.)*)"\s*:/g)].map((match) => JSON.parse(`"${match[1]}"`) as string);
  return order.map((key) => [key, cells[key]]);
}

const flatRows: { name: string; text: string }[] = [
  { name: 'empty object', text: '{}' },
  { name: 'plain strings', text: '{"a":"x","b":"hello world"}' },
  { name: 'escapes', text: String.raw`{"a":"q\"uote","b":"back\\slash","c":"line\nbreak\r\ttab","d":"\b\f\/"}` },
  { name: 'unicode as is', text: '{"名前":"Zoë","emoji":"😀 €","rtl":"שלום"}' },
  { name: '\\u sequences', text: String.raw`{"\u0041":"\u00e9\u20ac","s":"\ud83d\ude00","lone":"\ud800x","ctl":"\u0001\u001f"}` },
  { name: 'numbers', text: '{"i":0,"n":-12,"f":1.5,"e":1e21,"s":-2.5e-7,"z":-0,"max":9007199254740993,"neg":-12345678901234567890}' },
  { name: 'exact doubles with 16 digits', text: '{"a":-9007199254740992,"b":1234567890123456.5,"c":1000000000000000}' },
  { name: 'booleans and null', text: '{"t":true,"f":false,"n":null}' },
  { name: 'whitespace between tokens', text: ' { "a" : 1 ,\n"b"\t:\r"x" } ' },
  { name: 'keys that look special', text: '{"__proto__":"p","constructor":1,"1":"one","a,b":"c","=x":"=1"}' },
  { name: 'commas and quotes inside strings', text: '{"a":"1,2","b":"}\\"{","c":"[x]"}' },
];

const declined: { name: string; text: string }[] = [
  { name: 'nested object', text: '{"a":1,"b":{"c":2}}' },
  { name: 'nested array', text: '{"a":[1,2]}' },
  { name: 'an array', text: '[1,2]' },
  { name: 'a string', text: '"a"' },
  { name: 'truncated', text: '{"a":"x' },
  { name: 'trailing text', text: '{"a":1}x' },
];

describe('flat JSON rows', () => {
  for (const c of flatRows) {
    it(`reads ${c.name} as JSON.parse does`, () => {
      assert.deepEqual(flatMembers(c.text), parsedMembers(c.text));
    });
  }

  for (const c of declined) {
    it(`declines ${c.name}, leaving it to JSON.parse`, () => {
      assert.equal(flatMembers(c.text), undefined);
    });
  }

  it('stops when the caller says so', () => {
    let seen = 0;
    assert.equal(readFlatObject('{"a":1,"b":2,"c":3}', () => ++seen < 2), false);
    assert.equal(seen, 2);
  });

  it('gives the CSV encoder the same records as the JSON.parse path, out of order and repeated keys too', () => {
    const columns = ['a', 'b', 'c'];
    const cases: { text: string; csv: string }[] = [
      { text: '{"a":"x","b":1,"c":true}', csv: 'x,1,true\r\n' },
      { text: '{"c":"z","a":"x"}', csv: 'x,,z\r\n' },
      { text: '{"a":"x","a":"y"}', csv: 'y,,\r\n' },
      { text: '{"a":null,"b":"","c":"q\\"u,o"}', csv: ',,"q""u,o"\r\n' },
      { text: '{"a":"\\u003d1","b":12345678901234567890}', csv: "'=1,12345678901234567890,\r\n" },
    ];
    const encoder = createCsvEncoder({ columns, safe: true });
    for (const c of cases) assert.equal(encoder.chunk([{ data: c.text }]), c.csv, c.text);
  });

  it('reads generated rows as JSON.parse does', () => {
    const value = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.bigInt(), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(fc.string({ unit: 'binary', maxLength: 4 }), value), { selector: ([key]) => key, maxLength: 6 }), (pairs) => {
        const text = `{${pairs.map(([key, v]) => `${JSON.stringify(key)}:${typeof v === 'bigint' ? v.toString() : JSON.stringify(v)}`).join(',')}}`;
        assert.deepEqual(flatMembers(text), parsedMembers(text));
      }),
      { numRuns: 2000 },
    );
  });
});
