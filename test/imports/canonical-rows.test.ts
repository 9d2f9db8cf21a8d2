import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCanonicalBody } from '../../src/services/imports/canonical-rows';
import { RowChecker } from '../../src/services/imports/check-rows';
import { splitImportBody } from '../../src/services/imports/json-import-body';

const MAX_ROW_BYTES = 200;

/** What the general path (JSON.parse, checkRows) makes of a body: the stored texts and statistics, or its error. */
async function generalPath(text: string) {
  try {
    const split = await splitImportBody(text);
    const checker = new RowChecker(MAX_ROW_BYTES);
    const texts: string[] = [];
    for (const slice of split.slices) texts.push(...checker.check(slice));
    return { meta: split.meta, originalSchema: split.originalSchema, texts, stats: checker.stats() };
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) };
  }
}

/** The fast path's answer for a body, which must be the general path's whenever it gives one. */
async function fastPath(text: string) {
  const fast = checkCanonicalBody(text, MAX_ROW_BYTES);
  if (fast !== undefined) assert.deepEqual(fast, await generalPath(text), `fast path differs on ${text}`);
  return fast;
}

const body = (rows: string) => `{"rows":[${rows}],"meta":{"schemaKey":"c"}}`;

describe('checkCanonicalBody: rows taken straight from the text', () => {
  const accepted: [string, string][] = [
    ['every cell type', '{"a":"x","b":1,"c":true,"d":null,"e":false}'],
    ['the escapes JSON.stringify writes', String.raw`{"a":"q\"uote\\ \n\t\r\b\f\u0001\u001f\u000b"}`],
    ['escapes at the edges of a cell', String.raw`{"a":"\n12\t","b":"\"x\"","c":"\u000b","d":"a\"b@example.com","e":"\\","f":" \n"}`],
    ['cells whose escapes trim() removes or keeps', String.raw`{"a":"\u000b12","b":"\u001b12","c":"\u001c12","d":"12\n34","e":"\r\n","f":"\b","g":"x\\y@z.co","h":"\ttrue\f"}`],
    ['unicode, raw', '{"a":"Zürich 😀 \u2028","é":"ü"}'],
    ['keys an object may hold', '{"__proto__":"x","constructor":1,"toString":"y","":"empty key"}'],
    ['numbers in their shortest form', '{"a":0,"b":-1,"c":1.5,"d":-0.5,"e":0.000001,"f":123456789012345,"g":1.23456789012345,"h":-0.000123,"i":100}'],
    ['empty rows and other shapes', '{},{"a":1},{"b":2,"a":1},{"a":1,"b":2,"c":"3"},{"a":1}'],
    ['typed strings', '{"n":"12","d":"2024-01-31","e":"a@b.co","b":"TRUE","s":"x","m":"1.5e3"}'],
  ];
  for (const [name, rows] of accepted) {
    it(`stores ${name} as the general path does`, async () => {
      assert.ok(await fastPath(body(rows)), 'taken by the fast path');
    });
  }

  it('accepts whitespace around the rows and members, and rows in any member order', async () => {
    for (const text of [
      ` { "meta" : {"a": [1, 2]} ,\n "rows" : [\n{"a":1},\r\n\t{"a":2}\n] , "originalSchema": {"key":"k"} } `,
      '{"rows":[]}',
      '{"rows":[{"a":"x"}],"other":{"x":[1,{"y":null}]}}',
    ]) {
      assert.ok(await fastPath(text), text);
    }
  });

  it('keeps the statistics across rows: first-seen key order, mixed and empty columns', async () => {
    const fast = await fastPath(body('{"a":"1","b":null},{"b":"x","a":2,"c":""},{"c":" ","a":"x@y.z"}'));
    assert.deepEqual(fast?.stats, {
      totalCells: 7,
      rowCount: 3,
      fieldBreakdown: [
        { key: 'a', type: 'mixed', count: 3 },
        { key: 'b', type: 'string', count: 1 },
        { key: 'c', type: 'empty', count: 0 },
      ],
    });
  });

  // Valid rows the fast path does not store as written: the general path takes the whole body.
  const general: [string, string][] = [
    ['whitespace in a row', '{"a": 1}'],
    ['a trailing fraction zero', '{"a":1.50}'],
    ['an exponent', '{"a":1e3}'],
    ['-0', '{"a":-0}'],
    ['a number JSON.stringify writes with an exponent', '{"a":0.0000001}'],
    ['16 significant digits', '{"a":1234567890123456}'],
    ['an integer beyond 2^53', '{"a":12345678901234567890}'],
    ['an escaped slash', String.raw`{"a":"\/"}`],
    ['a needless \\u escape', String.raw`{"a":"\u0041"}`],
    ['upper-case hex', String.raw`{"a":"\u001F"}`],
    ['a short escape written long', String.raw`{"a":"\u000a"}`],
    ['an escaped surrogate pair', String.raw`{"a":"\ud83d\ude00"}`],
    ['an escaped key', String.raw`{"\u0061":1}`],
    ['a key written twice', '{"a":1,"a":2}'],
    ['a key written twice after a first row', '{"a":1,"b":2},{"a":1,"b":2,"a":3}'],
    ['an array-index key (JSON.parse puts it first)', '{"b":1,"1":2}'],
  ];
  const generalBodies: [string, string][] = [...general.map(([name, rows]): [string, string] => [name, body(rows)]), ['rows written twice', '{"rows":[{"a":1}],"rows":[{"a":2}]}']];
  for (const [name, text] of generalBodies) {
    it(`leaves ${name} to the general path`, async () => {
      assert.equal(checkCanonicalBody(text, MAX_ROW_BYTES), undefined);
      assert.ok('texts' in (await generalPath(text)), 'the general path stores it');
    });
  }

  // Bodies the general path refuses: the fast path never accepts one.
  const refused = [
    body('{"a":{"b":1}}'),
    body('{"a":[1]}'),
    body('[1]'),
    body('"x"'),
    body('null'),
    body('{"a":1e400}'),
    body(`{"a":"${'x'.repeat(MAX_ROW_BYTES)}"}`),
    body('{"a":"line\nbreak"}'),
    body('{"a":"tab\there"}'),
    body('{"a":01}'),
    body('{"a":-}'),
    body('{"a":.5}'),
    body('{"a":1.}'),
    body('{"a":tru}'),
    body('{"a":1,}'),
    body('{"a":1}{"a":2}'),
    body('{"a":1},'),
    body('{"a":"x'),
    body(String.raw`{"a":"\x"}`),
    '{"rows":[{"a":1}],}',
    '{"rows":[{"a":1}] "meta":{}}',
    '{"rows":{"a":1}}',
    '{"meta":{}}',
    '{"rows":[{"a":1}],"meta":{"a":}}',
    '{"ro\nws":[],"rows":[]}',
    '[{"a":1}]',
    '{"rows":[{"a":1}]} x',
    '{"rows":[{"a":1}]',
  ];
  for (const text of refused) {
    it(`refuses ${JSON.stringify(text).slice(0, 60)} through the general path`, async () => {
      assert.equal(checkCanonicalBody(text, MAX_ROW_BYTES), undefined);
      assert.ok('error' in (await generalPath(text)), 'the general path refuses it');
    });
  }
});
