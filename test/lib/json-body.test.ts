import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { JsonSyntaxError, splitJsonBody } from '../../src/lib/json-body';

/** One row of a split body, parsed. */
const parseRow = (text: string, start: number, end: number): unknown => JSON.parse(text.slice(start, end));

describe('splitJsonBody', () => {
  it('splits rows and parses the other members, whatever their order and spacing', async () => {
    const text = ' { "meta" : {"a":[1,{"b":"]}"}]} ,\n"rows":[ {"x":"a\\"b","y":1} , {"z":null,"__proto__":true} ],"originalSchema":{"key":"k"} } ';
    const split = await splitJsonBody(text);
    assert.deepEqual(split.members, { meta: { a: [1, { b: ']}' }] }, originalSchema: { key: 'k' } });
    const rows = split.rows!.starts.map((s, i) => parseRow(text, s, split.rows!.ends[i]!));
    assert.deepEqual(rows[0], { x: 'a"b', y: 1 });
    assert.deepEqual(Object.keys(rows[1] as object), ['z', '__proto__']);
  });

  it('handles empty bodies, empty rows, escaped backslashes and rows that are not objects', async () => {
    assert.deepEqual(await splitJsonBody('{}'), { members: {}, rows: undefined });
    const empty = await splitJsonBody('{"rows":[]}');
    assert.deepEqual(empty.rows, { starts: [], ends: [] });
    const text = '{"rows":["a\\\\",1,true,null,[1,2]]}';
    const split = await splitJsonBody(text);
    assert.deepEqual(split.rows!.starts.map((s, i) => parseRow(text, s, split.rows!.ends[i]!)), ['a\\', 1, true, null, [1, 2]]);
    const notArray = await splitJsonBody('{"rows":{"a":1}}');
    assert.equal(notArray.rows, undefined);
    assert.deepEqual(notArray.rowsValue, { a: 1 });
  });

  const malformed = ['', '{', '{"rows":[', '{"rows":[{}', '{"rows":[{},]}', '{"a" 1}', '{"a":1,}', '{"a":1} x', '{"rows":[{"a":"unterminated}]}', "{'a':1}", '{"a":tru}', '{"rows":[{}{}]}', '[{}'];
  for (const text of malformed) {
    it(`rejects ${JSON.stringify(text)} (JSON.parse rejects it too), or one of its rows does not parse`, async () => {
      assert.throws(() => JSON.parse(text));
      await assert.rejects(
        async () => {
          const split = await splitJsonBody(text);
          split.rows?.starts.forEach((s, i) => parseRow(text, s, split.rows!.ends[i]!));
        },
        (error) => error instanceof JsonSyntaxError || error instanceof SyntaxError,
      );
    });
  }

  it('flags valid JSON that is not an object', async () => {
    for (const text of ['[]', 'null', '"rows"', '12']) assert.equal((await splitJsonBody(text)).notAnObject, true);
  });

  it('agrees with JSON.parse on generated bodies', async () => {
    const cell = fc.oneof(fc.string({ unit: 'binary' }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
    const row = fc.dictionary(fc.string({ unit: 'binary' }), cell);
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 20 }), fc.jsonValue(), fc.boolean(), async (rows, meta, pretty) => {
        const body = { meta, rows };
        const text = pretty ? JSON.stringify(body, null, 2) : JSON.stringify(body);
        const expected = JSON.parse(text);
        const split = await splitJsonBody(text, 3);
        const parsed = split.rows!.starts.map((s, i) => parseRow(text, s, split.rows!.ends[i]!));
        assert.deepEqual(parsed, expected.rows);
        assert.deepEqual(split.members, { meta: expected.meta });
      }),
      { numRuns: 300 },
    );
  });
});
