import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCliHarness, type CliHarness } from '../helpers/cli';
import { json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

// Small caps, so a line over the NDJSON line limit (the larger of a row and meta + schema + 16 KiB) is cheap.
const LIMITS = { IMPORTD_MAX_META_BYTES: '1kb', IMPORTD_MAX_SCHEMA_BYTES: '1kb', IMPORTD_MAX_ROW_BYTES: '1kb' };
const MAX_LINE_BYTES = 1024 + 1024 + 16 * 1024;

const text = (value: string) => new TextEncoder().encode(value);
const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? text(part) : Uint8Array.from(part))));
const row = (n: number) => `{"n":${n},"s":"${'r'.repeat(150)}"}`;
/** `count` rows, every fifth line blank: about 31 KB a 200 lines, so a file of it spans several 64 KiB reads. */
const rowsWithBlanks = (count: number) => Array.from({ length: count }, (_, i) => (i % 5 === 4 ? '' : row(i))).join('\n');

interface Case {
  label: string;
  /** The rows part: the whole file for `importd import`, what follows the header line over HTTP. */
  rows: Uint8Array;
  /** The error, for the physical line `line` of the rows part (over HTTP the header line comes before it). */
  code: 'invalid_json' | 'payload_too_large';
  line: number;
  message: (line: number) => RegExp;
}

const notJson = (line: number) => new RegExp(`^line ${line} is not valid JSON: `);
const notUtf8 = (line: number) => new RegExp(`^line ${line} is not valid UTF-8$`);
const tooLong = (line: number) => new RegExp(`^line ${line} is longer than ${MAX_LINE_BYTES} bytes$`);

const cases: Case[] = [
  { label: 'bad JSON after blank lines', rows: bytes('{"a":1}\n\n\n{"a":2}\n\n{"a":\n{"a":3}\n'), code: 'invalid_json', line: 6, message: notJson },
  { label: 'bad JSON in a CRLF file with blank lines', rows: bytes('{"a":1}\r\n\r\n{"a":2}\r\n{"a":\r\n'), code: 'invalid_json', line: 4, message: notJson },
  { label: 'bad JSON in a later chunk, after blank lines in earlier ones', rows: bytes(`${rowsWithBlanks(600)}\n\n{"a":\n`), code: 'invalid_json', line: 602, message: notJson },
  { label: 'bad JSON on a last line without newline', rows: bytes('\n{"a":1}\n\n{"a":'), code: 'invalid_json', line: 4, message: notJson },
  { label: 'invalid UTF-8 in the middle of a chunk', rows: bytes('{"a":1}\n\n{"a":2}\n{"a":"', [0xff], '"}\n{"a":3}\n'), code: 'invalid_json', line: 4, message: notUtf8 },
  { label: 'invalid UTF-8 in the middle of a CRLF chunk', rows: bytes('{"a":1}\r\n\r\n{"a":"', [0xc3, 0x28], '"}\r\n{"a":3}\r\n'), code: 'invalid_json', line: 3, message: notUtf8 },
  {
    label: 'invalid UTF-8 in a later chunk, after characters split between chunks',
    rows: bytes(`${rowsWithBlanks(600).replaceAll('rrr', 'r€ü')}\n\n{"a":"`, [0xe2, 0x82], '"}\n'),
    code: 'invalid_json',
    line: 602,
    message: notUtf8,
  },
  { label: 'a character cut short at the end of the input', rows: bytes('{"a":1}\n\n{"a":"', [0xf0, 0x9f, 0x98]), code: 'invalid_json', line: 3, message: notUtf8 },
  // The input's first fault is the one named, though a later line of the same chunk has another.
  { label: 'bad JSON before a line that is not UTF-8', rows: bytes('{"a":1}\n{"a":\n{"a":"', [0xff], '"}\n'), code: 'invalid_json', line: 2, message: notJson },
  { label: 'bad JSON before a line over the limit', rows: bytes(`{"a":1}\n{"a":\n{"a":"${'x'.repeat(20_000)}"}\n`), code: 'invalid_json', line: 2, message: notJson },
  { label: 'a line over the limit within one chunk', rows: bytes(`{"a":1}\n\n{"a":"${'x'.repeat(20_000)}"}\n{"a":2}\n`), code: 'payload_too_large', line: 3, message: tooLong },
  { label: 'a line over the limit across chunks', rows: bytes(`${rowsWithBlanks(10)}\n\n{"a":"${'x'.repeat(70_000)}"}\n`), code: 'payload_too_large', line: 12, message: tooLong },
];

/** Pieces of 997 bytes: over HTTP the body then arrives in many chunks, as over a socket. */
function pieces(body: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < body.length; i += 997) out.push(body.subarray(i, i + 997));
  return out;
}

describe('NDJSON errors name the physical line, over HTTP and from `importd import` alike', () => {
  const { h, env } = useHarness({ config: LIMITS });
  let cli: CliHarness;
  before(async () => {
    cli = await createCliHarness(LIMITS);
    assert.equal((await cli.run('env', 'create', 'ops')).code, 0);
  });
  after(() => cli.close());

  const httpCount = async () => (await h.sql('SELECT count(*) AS n FROM imports'))[0]!.n;
  const cliCount = async () => (await cli.sql('SELECT count(*) AS n FROM imports'))[0]!.n;

  async function post(body: Uint8Array, split: boolean) {
    const chunks = split ? pieces(body) : [body];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    return h.app.request('/v1/imports', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-ndjson', Authorization: `Bearer ${env.secretKey}` },
      body: stream,
      duplex: 'half',
    } as RequestInit);
  }

  for (const { label, rows, code, line, message } of cases) {
    it(`${label}: line ${line} of the file, line ${line + 1} of an HTTP body (in one chunk and in many)`, async () => {
      const body = bytes('{"meta":{"schemaKey":"lines"}}\n', [...rows]);
      for (const split of [false, true]) {
        const before = await httpCount();
        const response = await post(body, split);
        const { error } = await json(response);
        assert.equal(response.status, code === 'invalid_json' ? 400 : 413, JSON.stringify(error));
        assert.equal(error.code, code);
        assert.match(error.message, message(line + 1));
        assert.equal(await httpCount(), before);
      }

      const before = await cliCount();
      const file = path.join(cli.dir, 'rows.ndjson');
      writeFileSync(file, rows);
      const { code: exit, stderr } = await cli.run('import', file, '--env', 'ops', '--template', 'lines');
      assert.equal(exit, 2, stderr);
      assert.equal(stderr.split('\n').length, 2, stderr);
      assert.match(stderr.slice(0, -1), new RegExp(`^error \\[${code}\\]: ${message(line).source.slice(1)}`));
      assert.equal(await cliCount(), before);
    });
  }
});
