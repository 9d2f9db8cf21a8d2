import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidUtf8Error, LineTooLongError, readLineBatches, type LineBatch } from '../../src/lib/lines';

async function* source(parts: (string | Uint8Array)[]) {
  for (const part of parts) yield typeof part === 'string' ? new TextEncoder().encode(part) : part;
}

async function batchesOf(parts: (string | Uint8Array)[], max = 1024) {
  const batches: LineBatch[] = [];
  for await (const batch of readLineBatches(source(parts), max)) batches.push(batch);
  return batches;
}

/** Each line with its number, as `number:line`. */
async function collect(parts: (string | Uint8Array)[], max?: number) {
  return (await batchesOf(parts, max)).flatMap(({ lines, numbers }) => lines.map((line, i) => `${numbers[i]}:${line}`));
}

/** The same bytes, cut into chunks at every possible place (and byte by byte). */
function cuts(bytes: Uint8Array): Uint8Array[][] {
  const ways = [[bytes], Array.from(bytes, (byte) => Uint8Array.of(byte))];
  for (let at = 1; at < bytes.length; at++) ways.push([bytes.subarray(0, at), bytes.subarray(at)]);
  return ways;
}

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? new TextEncoder().encode(part) : Uint8Array.from(part))));

describe('readLineBatches', () => {
  it('splits across chunk boundaries, handles CRLF, skips empty lines and keeps a last line without newline', async () => {
    assert.deepEqual(await collect(['{"a":', '1}\n{"b"', ':2}\r\n\n', '{"c":3}']), ['1:{"a":1}', '2:{"b":2}', '4:{"c":3}']);
  });

  it('decodes multi-byte characters split between chunks', async () => {
    const text = bytes('"Zürich 😀"\n');
    assert.deepEqual(await collect([text.slice(0, 3), text.slice(3, 9), text.slice(9)]), ['1:"Zürich 😀"']);
  });

  it('numbers lines as an editor does, blank lines and CRLF counted, however the bytes are cut', async () => {
    const text = bytes('\n{"a":1}\r\n\r\n\n{"b":"ü"}\n\r\n{"c":3}\r\n\n');
    for (const parts of cuts(text)) assert.deepEqual(await collect(parts), ['2:{"a":1}', '5:{"b":"ü"}', '7:{"c":3}']);
  });

  it('names the line that holds a byte that is not UTF-8, however the bytes are cut', async () => {
    const inputs: [Uint8Array, number][] = [
      [bytes('{"a":1}\n\n{"b":2}\n{"c":"', [0xff], '"}\n{"d":4}\n'), 4],
      [bytes('\r\n{"a":"é"}\r\n{"b":"', [0xc3, 0x28], '"}\r\n'), 3],
      [bytes('{"a":1}\n{"b":"', [0xe2, 0x82], '\n{"c":3}\n'), 2],
      [bytes('{"a":1}\n\n{"b":"', [0xf0, 0x9f, 0x98]), 3],
      [bytes([0xff], '\n{"a":1}\n'), 1],
    ];
    for (const [text, line] of inputs) {
      for (const parts of cuts(text)) {
        await assert.rejects(collect(parts), (error) => error instanceof InvalidUtf8Error && error.line === line, `line ${line} of ${parts.length} parts`);
      }
    }
  });

  it('refuses a line over the limit naming it, whether it ends in its chunk or not; one of the limit passes, CRLF or not', async () => {
    const long = 'x'.repeat(11);
    const refused = (line: number) => (error: unknown) => error instanceof LineTooLongError && error.line === line && error.message === `line ${line} is longer than 10 bytes`;
    await assert.rejects(collect([`{}\n\n${long}`], 10), refused(3));
    await assert.rejects(collect([`{}\n\n${long}\n{}\n`], 10), refused(3));
    await assert.rejects(collect(['{}\n\nxxxxxx', 'xxxxxx', '\n'], 10), refused(3));
    // 4 bytes of 3-byte characters, 12 bytes: measured in bytes, not characters.
    await assert.rejects(collect(['{}\n€€€€\n'], 10), refused(2));
    for (const parts of cuts(bytes(`{}\r\n${'x'.repeat(10)}\r\n{}\r\n`))) assert.deepEqual(await collect(parts, 10), ['1:{}', `2:${'x'.repeat(10)}`, '3:{}']);
  });

  it('drops a byte order mark, not counted against the first line, however the bytes are cut', async () => {
    for (const parts of cuts(bytes([0xef, 0xbb, 0xbf], `${'x'.repeat(10)}\r\n{}`))) assert.deepEqual(await collect(parts, 10), [`1:${'x'.repeat(10)}`, '2:{}']);
    for (const parts of cuts(bytes([0xef, 0xbb, 0xbf], 'x'.repeat(10)))) assert.deepEqual(await collect(parts, 10), [`1:${'x'.repeat(10)}`]);
    for (const parts of cuts(bytes([0xef, 0xbb, 0xbf], `${'x'.repeat(11)}\n{}`))) {
      await assert.rejects(collect(parts, 10), (error) => error instanceof LineTooLongError && error.line === 1);
    }
  });

  it('yields the lines before a fault, then names the first fault, however the bytes are cut', async () => {
    const long = 'x'.repeat(11);
    const inputs: [Uint8Array, string[], (error: unknown) => boolean][] = [
      [bytes(`{}\n\n${long}\n{"b":"`, [0xff], '"}\n'), ['1:{}'], (error) => error instanceof LineTooLongError && error.line === 3],
      [bytes('{}\n{"b":"', [0xff], `"}\n${long}\n`), ['1:{}'], (error) => error instanceof InvalidUtf8Error && error.line === 2],
      [bytes(`{}\n{}\n${long}`), ['1:{}', '2:{}'], (error) => error instanceof LineTooLongError && error.line === 3],
    ];
    for (const [text, before, fault] of inputs) {
      for (const parts of cuts(text)) {
        const seen: string[] = [];
        const read = async () => {
          for await (const { lines, numbers } of readLineBatches(source(parts), 10)) seen.push(...lines.map((line, i) => `${numbers[i]}:${line}`));
        };
        await assert.rejects(read(), fault, `${parts.length} parts`);
        assert.deepEqual(seen, before, `${parts.length} parts`);
      }
    }
  });

  it('in batches: the lines each chunk completes, together', async () => {
    const batches = await batchesOf(['{"a":1}\n{"b":', '2}\n{"c":3}\n\n{"d":4}\n', '\n', '{"e":5}']);
    assert.deepEqual(batches, [
      { lines: ['{"a":1}'], numbers: [1] },
      { lines: ['{"b":2}', '{"c":3}', '{"d":4}'], numbers: [2, 3, 5] },
      { lines: ['{"e":5}'], numbers: [7] },
    ]);
  });
});
