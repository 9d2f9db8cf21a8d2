import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineTooLongError, readLineBatches } from '../../src/lib/lines';

async function* source(parts: (string | Uint8Array)[]) {
  for (const part of parts) yield typeof part === 'string' ? new TextEncoder().encode(part) : part;
}

async function collect(parts: (string | Uint8Array)[], max?: number) {
  const lines: string[] = [];
  for await (const batch of readLineBatches(source(parts), max)) lines.push(...batch);
  return lines;
}

describe('readLineBatches', () => {
  it('splits across chunk boundaries, handles CRLF, skips empty lines and keeps a last line without newline', async () => {
    assert.deepEqual(await collect(['{"a":', '1}\n{"b"', ':2}\r\n\n', '{"c":3}']), ['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('decodes multi-byte characters split between chunks', async () => {
    const bytes = new TextEncoder().encode('"Zürich 😀"\n');
    assert.deepEqual(await collect([bytes.slice(0, 3), bytes.slice(3, 9), bytes.slice(9)]), ['"Zürich 😀"']);
  });

  it('rejects invalid UTF-8 and over-long lines', async () => {
    await assert.rejects(collect([new Uint8Array([0x7b, 0xff, 0x7d, 0x0a])]), TypeError);
    await assert.rejects(collect(['x'.repeat(100)], 10), LineTooLongError);
  });

  it('in batches: the lines each chunk completes, together', async () => {
    const batches: string[][] = [];
    for await (const batch of readLineBatches(source(['{"a":1}\n{"b":', '2}\n{"c":3}\n\n{"d":4}\n', '\n', '{"e":5}']))) batches.push(batch);
    assert.deepEqual(batches, [['{"a":1}'], ['{"b":2}', '{"c":3}', '{"d":4}'], ['{"e":5}']]);
  });
});
