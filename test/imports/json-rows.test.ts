import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ServiceError } from '../../src/services/errors';
import { CanonicalRowScanner } from '../../src/services/imports/canonical-rows';
import { CellStatsCollector } from '../../src/services/imports/cell-stats';
import { RowChecker } from '../../src/services/imports/check-rows';
import { readImportBytes } from '../../src/services/imports/json-import-body';
import { ndjsonRowSlices } from '../../src/services/imports/ndjson-rows';
import type { CellStats } from '../../src/services/imports/schemas';
import { SLICE_ROWS } from '../../src/services/imports/slices';

// Every row read from its JSON text (a JSON body's rows, NDJSON lines) goes through one reader: the canonical
// scan, or JSON.parse + checkRow for that row alone. The reference here is the general path as it was: every
// row parsed (a slice's rows all parsed before any is checked), then checked as a value, the statistics fed
// cell by cell, the row stored as JSON.stringify prints it.

const MAX_ROW_BYTES = 200;

type Outcome = { texts: string[]; stats: unknown } | { error: { code: string; message: string; details?: unknown } };

function describeError(error: unknown): Outcome {
  if (!(error instanceof ServiceError)) throw error;
  return { error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } };
}

/** What the general path made of rows written as these texts (invalid JSON named as `invalid` words it). */
function reference(rowTexts: string[], invalid: (index: number, message: string) => string): Outcome {
  const checker = new RowChecker(MAX_ROW_BYTES);
  const texts: string[] = [];
  try {
    for (let first = 0; first < rowTexts.length; first += SLICE_ROWS) {
      const slice = rowTexts.slice(first, first + SLICE_ROWS).map((text, i) => {
        try {
          return JSON.parse(text) as unknown;
        } catch (error) {
          throw new ServiceError('invalid_json', invalid(first + i, (error as Error).message));
        }
      });
      texts.push(...checker.check(slice));
    }
  } catch (error) {
    return describeError(error);
  }
  return { texts, stats: checker.stats() };
}

const inBody = (rows: string) => `{"rows":[${rows}],"meta":{"schemaKey":"c"}}`;

/**
 * A JSON body's rows, read during the split (the request thread) or after it (the parse worker; `keysOnly`: for a
 * template's rules, which count the stored rows themselves).
 */
async function throughBody(rowTexts: string[], around = inBody, readAhead = true, keysOnly = false): Promise<Outcome> {
  const checker = new RowChecker(MAX_ROW_BYTES);
  const texts: string[] = [];
  try {
    const body = await readImportBytes(Buffer.from(around(rowTexts.join(','))), MAX_ROW_BYTES, readAhead);
    if (keysOnly) body.countKeysOnly!();
    for (const slice of body.rows) texts.push(...checker.check(slice));
  } catch (error) {
    return describeError(error);
  }
  return { texts, stats: checker.stats() };
}

/** The lines in batches of three, as readLineBatches yields a chunk's lines, numbered from 1. */
async function* batches(lines: string[]) {
  for (let i = 0; i < lines.length; i += 3) yield { lines: lines.slice(i, i + 3), numbers: lines.slice(i, i + 3).map((_, j) => i + j + 1) };
}

async function throughNdjson(rowTexts: string[]): Promise<Outcome> {
  const checker = new RowChecker(MAX_ROW_BYTES);
  const texts: string[] = [];
  try {
    for await (const slice of ndjsonRowSlices(batches(rowTexts), MAX_ROW_BYTES)) texts.push(...checker.check(slice));
  } catch (error) {
    return describeError(error);
  }
  return { texts, stats: checker.stats() };
}

const bodyMessage = (_index: number, message: string) => `the request body is not valid JSON: ${message}`;
const lineMessage = (index: number, message: string) => `line ${index + 1} is not valid JSON: ${message}`;

/** Both ways in must agree with the reference, row for row, statistic for statistic, error for error. */
async function assertAsBefore(rowTexts: string[]): Promise<Outcome> {
  const expected = reference(rowTexts, bodyMessage);
  assert.deepEqual(await throughBody(rowTexts), expected, `JSON body of ${JSON.stringify(rowTexts).slice(0, 300)}`);
  assert.deepEqual(await throughBody(rowTexts, inBody, false), expected, `JSON body read after the split: ${JSON.stringify(rowTexts).slice(0, 300)}`);
  assert.deepEqual(await throughBody(rowTexts, inBody, false, true), keysOf(expected), `JSON body read for rules: ${JSON.stringify(rowTexts).slice(0, 300)}`);
  assert.deepEqual(await throughNdjson(rowTexts), reference(rowTexts, lineMessage), `NDJSON of ${JSON.stringify(rowTexts).slice(0, 300)}`);
  return expected;
}

/** The outcome with statistics of the columns' keys only: the same rows, the same refusals, the same keys in the same order. */
function keysOf(outcome: Outcome): Outcome {
  if ('error' in outcome) return outcome;
  const stats = outcome.stats as CellStats;
  return { texts: outcome.texts, stats: { totalCells: 0, rowCount: stats.rowCount, fieldBreakdown: stats.fieldBreakdown.map(({ key }) => ({ key, type: 'empty', count: 0 })) } };
}

/** A JSON string literal with every code unit escaped as \\uXXXX. */
const escapeAll = (text: string) => `"${Array.from({ length: text.length }, (_, i) => `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}"`;

const cell = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.constantFrom('', ' ', '"', '\\', '\n\t\r\b\f', '\u0001\u001f\u000b\u007f', '\u2028', 'a":b', '\ud800', '\udc00x', '😀', 'a@b.co', ' x\\y@z.co', '2024-02-30', '12', ' TRUE ', '1.5e3'),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(0, -0.5, 1e21, 1e-7, 0.000001, 123456789012345, 1234567890123456, 0.1 + 0.2, -(2 ** 53)),
  fc.boolean(),
  fc.constant(null),
);
const key = fc.oneof(
  fc.constantFrom('a', 'b', 'c', 'email', 'day'),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', '0', '1', '01', '-1', '4294967295', '1.5', 'a":', ''),
);
const rowValue = fc.dictionary(key, cell, { maxKeys: 8 });

/** The same row written in each of the ways a client may: the scan takes the first, JSON.parse the others. */
const written = (value: Record<string, unknown>, how: number): string => {
  const keys = Object.keys(value);
  switch (how) {
    case 1:
      return JSON.stringify(value, null, 1);
    case 2:
      return `{${keys.map((k) => `${escapeAll(k)}:${typeof value[k] === 'string' ? escapeAll(value[k]) : JSON.stringify(value[k])}`).join(',')}}`;
    case 3:
      return `{${keys.map((k) => `${JSON.stringify(k)}:"first",${JSON.stringify(k)}:${JSON.stringify(value[k])}`).join(',')}}`;
    case 4:
      // Numbers as a client may write them: 1.50, 1E2, -0.
      return JSON.stringify(value).replace(/:(-?\d+)(?=[,}])/g, (_, n: string) => `:${n}.0`);
    default:
      return JSON.stringify(value);
  }
};

// Rows the general path refuses, or that are not valid JSON.
const refusedRow = fc.constantFrom(
  '{"a":{"b":1}}',
  '{"a":[1]}',
  '[1]',
  '"x"',
  'null',
  '{"a":1e400}',
  `{"a":"${'x'.repeat(MAX_ROW_BYTES)}"}`,
  `{"a":"${'é'.repeat(MAX_ROW_BYTES / 2)}"}`,
  '{"a":1,"a":{"b":2}}',
);
const invalidRow = fc.constantFrom('{"a":"line\nbreak"}', '{"a":01}', '{"a":-}', '{"a":.5}', '{"a":tru}', '{"a":"x\\x"}', '{"a":"\\u00"}');

/** A row the general path stores (written any way), one it refuses, or one not valid JSON, in these proportions. */
const anyRow = ([stored, refused, invalid]: [number, number, number]) =>
  fc.oneof(
    { arbitrary: fc.tuple(rowValue, fc.nat(5)).map(([value, how]) => written(value, how)), weight: stored },
    { arbitrary: refusedRow, weight: refused },
    { arbitrary: invalidRow, weight: invalid },
  );

/** Three slices of rows `write` writes, with a few rows of `placed` put anywhere among them, read as the general path reads them. */
async function assertThreeSlices(write: (value: Record<string, unknown>) => string, placed: fc.Arbitrary<string>, numRuns: number) {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(placed, fc.nat(SLICE_ROWS * 3)), { maxLength: 4 }), fc.array(rowValue, { minLength: 1, maxLength: 4 }), async (others, common) => {
      const texts = Array.from({ length: SLICE_ROWS * 2 + 7 }, (_, i) => write(common[i % common.length]!));
      for (const [text, at] of others) texts[at % texts.length] = text;
      await assertAsBefore(texts);
    }),
    { numRuns },
  );
}

describe('rows read from their JSON texts: as the general path stores, counts and refuses them', () => {
  it('stores and counts any mix of rows, however they are written (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(rowValue, fc.nat(5)), { maxLength: 12 }), async (rows) => {
        const texts = rows.map(([value, how]) => written(value, how));
        const expected = await assertAsBefore(texts);
        // Every row stored as JSON.stringify prints it.
        if ('texts' in expected) assert.deepEqual(expected.texts, texts.map((t) => JSON.stringify(JSON.parse(t))));
      }),
      { numRuns: 1500 },
    );
  });

  it('refuses the same rows with the same errors, among rows of every kind (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyRow([6, 2, 1]), { maxLength: 10 }), async (texts) => {
        await assertAsBefore(texts);
      }),
      { numRuns: 1500 },
    );
  });

  it('reads slices alike whether each was taken during the split or read again (fast-check, three slices)', async () => {
    // Rows JSON.stringify wrote, with a few others among them.
    await assertThreeSlices((value) => JSON.stringify(value), anyRow([8, 1, 1]), 150);
  });

  it('reads a body of rows mostly written otherwise (parsed whole) as the general path does (fast-check, three slices)', async () => {
    // Rows written with spaces (Python's json.dumps), with a few others among them.
    await assertThreeSlices((value) => written(value, 1), anyRow([6, 2, 1]), 100);
  });

  it('numbers slices as the general path does: errors name the row in the whole import, at most 20 a slice', async () => {
    const good = JSON.stringify({ a: 1, b: 'x' });
    const texts = Array.from({ length: SLICE_ROWS * 2 + 10 }, () => good);
    for (let i = SLICE_ROWS + 3; i < SLICE_ROWS + 60; i += 1) texts[i] = i % 2 ? '{"a":[1]}' : '{"a": 1.50}';
    const outcome = await assertAsBefore(texts);
    assert.ok('error' in outcome);
    assert.equal((outcome.error.details as unknown[]).length, 20);
    assert.deepEqual((outcome.error.details as { path: string }[])[0], { path: `rows.${SLICE_ROWS + 3}.a`, message: 'must be a string, a finite number, a boolean or null' });
  });

  it('counts the rows of a slice past the 20 refusals it reports: the next slice begins where the general path begins it', async () => {
    // An NDJSON slice ends at its SLICE_ROWS-th row: one row not counted would move this invalid row into the refused slice.
    const texts: string[] = Array.from({ length: SLICE_ROWS * 2 }, (_, i) => (i < 40 ? '{"a":[1]}' : '{"a":1}'));
    texts[SLICE_ROWS + 10] = '{"a":tru}';
    const outcome = await assertAsBefore(texts);
    assert.ok('error' in outcome && outcome.error.code === 'validation_failed');
  });

  it('gives a row that is not valid JSON precedence over refusals earlier in its slice, not over an earlier slice', async () => {
    const good = '{"a":1}';
    const inOne = [good, '{"a":{"n":1}}', good, '{"a":tru}', good];
    const inOneOutcome = await assertAsBefore(inOne);
    assert.ok('error' in inOneOutcome && inOneOutcome.error.code === 'invalid_json');
    const apart = [...Array.from({ length: SLICE_ROWS }, (_, i) => (i === 5 ? '{"a":{"n":1}}' : good)), '{"a":tru}'];
    const apartOutcome = await assertAsBefore(apart);
    assert.ok('error' in apartOutcome && apartOutcome.error.code === 'validation_failed');
  });

  it('keeps first-seen column order when a row the scan leaves to JSON.parse comes first or in between', async () => {
    const outcome = await assertAsBefore(['{"b": 1.50, "1": "x"}', '{"c":"2024-01-31","b":2}', '{"2":true,"b":"y","z":null}', '{"c":"a@b.co"}']);
    assert.ok('stats' in outcome);
    assert.deepEqual(outcome.stats, {
      totalCells: 8,
      rowCount: 4,
      fieldBreakdown: [
        { key: '1', type: 'string', count: 1 },
        { key: 'b', type: 'mixed', count: 3 },
        { key: 'c', type: 'mixed', count: 2 },
        { key: '2', type: 'boolean', count: 1 },
        { key: 'z', type: 'empty', count: 0 },
      ],
    });
  });

  it('never takes a key written twice as written, even in a row shaped like the one before', async () => {
    const doubled = '{"a":1,"a":2}';
    const outcome = await assertAsBefore([doubled, doubled, '{"a":1,"b":2}', '{"a":1,"b":2,"a":3}', '{"a":1,"b":2}']);
    assert.ok('texts' in outcome);
    assert.deepEqual(outcome.texts, ['{"a":2}', '{"a":2}', '{"a":1,"b":2}', '{"a":3,"b":2}', '{"a":1,"b":2}']);
  });

  it('keeps integers beyond 2^53 as sent, beside rows taken as written', async () => {
    const texts = ['{"id":1,"n":"x"}', '{"id":12345678901234567890,"n":"y"}', '{"id": -9007199254740993, "n":1.50}', '{"id":3,"n":"z"}'];
    const stored = ['{"id":1,"n":"x"}', '{"id":12345678901234567890,"n":"y"}', '{"id":-9007199254740993,"n":1.5}', '{"id":3,"n":"z"}'];
    for (const outcome of [await throughBody(texts), await throughNdjson(texts)]) {
      assert.ok('texts' in outcome, JSON.stringify(outcome));
      assert.deepEqual(outcome.texts, stored);
    }
  });

  it('keeps integers beyond 2^53 as sent in a body of rows mostly written otherwise (not parsed whole then)', async () => {
    const texts = Array.from({ length: SLICE_ROWS + 3 }, (_, i) => `{"id": ${i}, "n": "x"}`);
    texts[SLICE_ROWS + 1] = '{"id": 12345678901234567890, "n": "y"}';
    const outcome = await throughBody(texts);
    assert.ok('texts' in outcome, JSON.stringify(outcome));
    assert.equal(outcome.texts[SLICE_ROWS + 1], '{"id":12345678901234567890,"n":"y"}');
    assert.equal(outcome.texts[0], '{"id":0,"n":"x"}');
  });

  it('reads NDJSON lines with text around the row through JSON.parse', async () => {
    const outcome = await throughNdjson(['  {"a":1}\t', '{"a":1} x']);
    assert.deepEqual(outcome, { error: { code: 'invalid_json', message: `line 2 is not valid JSON: ${errorOf('{"a":1} x')}` } });
    assert.deepEqual(await throughNdjson(['  {"a":1}\t', '{"a":2}']), reference(['{"a":1}', '{"a":2}'], lineMessage));
  });

  it('accepts whitespace around the rows and members, and the members in any order', async () => {
    const texts = ['{"a":1}', '{"a":2}'];
    for (const around of [
      (rows: string) => ` { "meta" : {"a": [1, 2]} ,\n "rows" : [\n${rows.replace(',', ',\r\n\t')}\n] , "originalSchema": {"key":"k"} } `,
      (rows: string) => `{"rows":[${rows}],"other":{"x":[1,{"y":null}]}}`,
      (rows: string) => `{"rows":[{"a":9}],"rows":[${rows}]}`,
    ]) {
      assert.deepEqual(await throughBody(texts, around), reference(texts, bodyMessage));
    }
  });
});

function errorOf(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} parses`);
}

describe('CanonicalRowScanner: the rows it takes as written', () => {
  const scans = (text: string) => new CanonicalRowScanner(MAX_ROW_BYTES).scan(text, 0, new CellStatsCollector(), text.length) === text.length;
  const taken = [
    '{"a":"x","b":1,"c":true,"d":null,"e":false}',
    String.raw`{"a":"q\"uote\\ \n\t\r\b\f\u0001\u001f\u000b"}`,
    '{"a":"Zürich 😀 \u2028","é":"ü"}',
    '{"__proto__":"x","constructor":1,"toString":"y","":"empty key"}',
    '{"a":0,"b":-1,"c":1.5,"d":-0.5,"e":0.000001,"f":123456789012345,"g":1.23456789012345,"h":-0.000123,"i":100}',
    '{}',
  ];
  for (const text of taken) {
    it(`takes ${text}`, () => assert.equal(scans(text), true));
  }
  // Valid rows JSON.stringify would print otherwise (or that the scan does not risk): JSON.parse takes them.
  const left = ['{"a": 1}', '{"a":1.50}', '{"a":1e3}', '{"a":-0}', '{"a":0.0000001}', '{"a":1234567890123456}', String.raw`{"a":"\/"}`,
    String.raw`{"a":"\u0041"}`, String.raw`{"a":"\u001F"}`, String.raw`{"a":"\u000a"}`, String.raw`{"a":"\ud83d\ude00"}`, String.raw`{"\u0061":1}`,
    '{"a":1,"a":2}', '{"b":1,"1":2}', '{"a":{"b":1}}', `{"a":"${'x'.repeat(MAX_ROW_BYTES)}"}`, ' {"a":1}', '{"a":1} '];
  for (const text of left) {
    it(`leaves ${text.slice(0, 40)} to JSON.parse`, () => assert.equal(scans(text), false));
  }
});
