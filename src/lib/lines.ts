import { isUtf8 } from 'node:buffer';

const LF = 10;
const CR = 13;

/**
 * The non-empty lines one chunk completes, each with its 1-based physical number (blank lines counted, `\r\n`
 * one line break), as a text editor numbers them: what an error about a line must name.
 */
export interface LineBatch {
  lines: string[];
  numbers: number[];
}

/**
 * Splits a byte stream into UTF-8 lines (without their `\n` or `\r\n`), holding at most one partial line
 * and one chunk in memory, and yields the lines each chunk completes as one batch: a caller loops over them
 * without a promise per line, which a million-line import would feel. Empty lines are skipped, not
 * forgotten: they count in the numbers. Throws LineTooLongError for a line over `maxLineBytes` (a partial one
 * as soon as it passes), InvalidUtf8Error for one that is not UTF-8, each naming the line, once the lines
 * before it are yielded.
 */
export async function* readLineBatches(chunks: AsyncIterable<Uint8Array>, maxLineBytes: number): AsyncGenerator<LineBatch> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (bytes: Uint8Array, line: number, stream = true) => {
    try {
      return decoder.decode(bytes, { stream });
    } catch {
      throw new InvalidUtf8Error(line);
    }
  };
  // Measured in bytes only when its characters could come to more (a UTF-16 unit is at most 3 bytes).
  const tooLong = (line: string) => line.length * 3 > maxLineBytes && Buffer.byteLength(line) > maxLineBytes;
  // The line not yet ended, and how many lines have ended before it.
  let pending = '';
  let pendingBytes = 0;
  let ended = 0;
  for await (const chunk of chunks) {
    const last = chunk.lastIndexOf(LF);
    const batch: LineBatch = { lines: [], numbers: [] };
    // What is wrong with a line past the first this chunk ends is thrown once the lines before it are yielded:
    // the input's first fault is the one named (a line that is not JSON before a later one too long or not
    // UTF-8), however its bytes arrive.
    let fault: Error | undefined;
    if (last === -1) {
      pending += decode(chunk, ended + 1);
      pendingBytes += chunk.byteLength;
    } else {
      // Decoded up to a line feed, the decoder holds no part of a character: what fails past the pending
      // line's end is found line by line.
      const first = chunk.indexOf(LF);
      let text = pending + decode(chunk.subarray(0, first + 1), ended + 1);
      if (last > first) {
        const whole = chunk.subarray(first + 1, last + 1);
        try {
          text += decoder.decode(whole, { stream: true });
        } catch {
          const valid = validLines(whole);
          // Decoded again by a decoder of their own: the one that threw may hold part of what it read.
          text += new TextDecoder().decode(whole.subarray(0, valid.bytes));
          fault = new InvalidUtf8Error(ended + 2 + valid.count);
        }
      }
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        ended++;
        const line = text.slice(start, end > start && text.charCodeAt(end - 1) === CR ? end - 1 : end);
        start = end + 1;
        if (line.length === 0) continue;
        if (tooLong(line)) {
          fault = new LineTooLongError(maxLineBytes, ended);
          break;
        }
        batch.lines.push(line);
        batch.numbers.push(ended);
      }
      if (fault === undefined) {
        try {
          pending = decoder.decode(chunk.subarray(last + 1), { stream: true });
        } catch {
          fault = new InvalidUtf8Error(ended + 1);
        }
        pendingBytes = chunk.byteLength - last - 1;
      }
    }
    // One byte over the limit may be the `\r` of a `\r\n` the next chunk ends; the first line's three more a
    // byte order mark, which the decoder drops. The line's own length is measured once it ends.
    if (fault === undefined && pendingBytes > maxLineBytes + (ended === 0 ? 4 : 1)) fault = new LineTooLongError(maxLineBytes, ended + 1);
    if (batch.lines.length > 0) yield batch;
    if (fault !== undefined) throw fault;
  }
  pending += decode(new Uint8Array(0), ended + 1, false);
  const last = pending.endsWith('\r') ? pending.slice(0, -1) : pending;
  if (last.length === 0) return;
  if (tooLong(last)) throw new LineTooLongError(maxLineBytes, ended + 1);
  yield { lines: [last], numbers: [ended + 1] };
}

/** How many of `lines` (each ended by a line feed) are UTF-8 before the first that is not, and their bytes. */
function validLines(lines: Uint8Array): { count: number; bytes: number } {
  let count = 0;
  let start = 0;
  for (let end = lines.indexOf(LF); end !== -1 && isUtf8(lines.subarray(start, end)); end = lines.indexOf(LF, start)) {
    count++;
    start = end + 1;
  }
  return { count, bytes: start };
}

export class LineTooLongError extends Error {
  override name = 'LineTooLongError';
  constructor(
    readonly maxLineBytes: number,
    readonly line: number,
  ) {
    super(`line ${line} is longer than ${maxLineBytes} bytes`);
  }
}

export class InvalidUtf8Error extends Error {
  override name = 'InvalidUtf8Error';
  constructor(readonly line: number) {
    super(`line ${line} is not valid UTF-8`);
  }
}
