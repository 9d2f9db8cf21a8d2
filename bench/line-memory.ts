// One NDJSON line of the default limit (1 MiB + 80 KiB) arriving in chunks of N bytes (a chunked HTTP body can
// cost a client ~6 bytes on the wire per chunk): the heap the line reader holds for it, and its time.
// Run: node --expose-gc --import tsx bench/line-memory.ts [N=1]
import { readLineBatches } from '../src/lib/lines';

const MAX_LINE_BYTES = 1024 ** 2 + 80 * 1024;
const size = Number(process.argv[2] ?? 1);

async function* chunks(): AsyncGenerator<Uint8Array> {
  const chunk = new Uint8Array(size).fill(0x61);
  for (let sent = 0; sent < MAX_LINE_BYTES; sent += size) yield chunk;
  yield Uint8Array.of(10);
}

async function main() {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().heapUsed;
  let peak = 0;
  let seen = 0;
  async function* watched() {
    for await (const chunk of chunks()) {
      if ((++seen & 0xffff) === 0) peak = Math.max(peak, process.memoryUsage().heapUsed - before);
      yield chunk;
    }
  }
  const started = performance.now();
  let lines = 0;
  for await (const batch of readLineBatches(watched(), MAX_LINE_BYTES)) lines += batch.lines.length;
  console.log(`${size}-byte chunks: ${lines} line, ${Math.round(performance.now() - started)} ms, heap peak +${(peak / 1e6).toFixed(1)} MB`);
}

void main();
