import { isUtf8 } from 'node:buffer';

const LF = 10;
const CR = 13;
const BOM = [0xef, 0xbb, 0xbf];

/**
 * The non-empty lines one chunk completes, each with its 1-based physical number (blank lines counted, `\r\n`
 * one line break), as a text editor numbers them: what an error about a line must name.
 */
export interface LineBatch {
  lines: string[];
  numbers: number[];
}

/**
 * Splits a byte stream into UTF-8 lines (without their `\n` or `\r\n`; a byte order mark that begins the
 * stream is dropped), holding at most one partial line and one chunk in memory, and yields the lines each
 * chunk completes as one batch: a caller loops over them without a promise per line, which a million-line
 * import would feel. Empty lines are skipped, not forgotten: they count in the numbers. Throws
 * LineTooLongError for a line over `maxLineBytes` (a partial one as soon as it passes), InvalidUtf8Error for
 * one that is not UTF-8, each naming the line, once the lines before it are yielded: the input's first fault
 * is the one named, however its bytes arrive.
 */
export async function* readLineBatches(chunks: AsyncIterable<Uint8Array>, maxLineBytes: number): AsyncGenerator<LineBatch> {
  // Never in streaming mode, so no call leaves state for the next; a U+FEFF that begins a later line is kept.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  // The line not yet ended, as bytes: decoded once it ends (tiny chunks would otherwise build a rope of tiny strings).
  const pending = new ByteLine();
  let ended = 0;
  /** One line's bytes (its line feed excluded) as its text; throws what is wrong with it. */
  const lineText = (bytes: Uint8Array, number: number): string => {
    let line = number === 1 && startsWithBom(bytes) ? bytes.subarray(BOM.length) : bytes;
    if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, -1);
    if (!isUtf8(line)) throw new InvalidUtf8Error(number);
    if (line.length > maxLineBytes) throw new LineTooLongError(maxLineBytes, number);
    return decoder.decode(line);
  };
  for await (const chunk of chunks) {
    const batch: LineBatch = { lines: [], numbers: [] };
    const add = (line: string) => {
      if (line.length === 0) return;
      batch.lines.push(line);
      batch.numbers.push(ended);
    };
    let fault: Error | undefined;
    const first = chunk.indexOf(LF);
    if (first === -1) pending.append(chunk);
    else {
      try {
        const line = lineText(pending.take(chunk.subarray(0, first)), ++ended);
        add(line);
        const last = chunk.lastIndexOf(LF);
        if (last > first) ended = splitLines(chunk.subarray(first + 1, last + 1), ended, add);
        pending.append(chunk.subarray(last + 1));
      } catch (error) {
        if (!(error instanceof LineTooLongError || error instanceof InvalidUtf8Error)) throw error;
        fault = error;
      }
    }
    // One byte over the limit may be the `\r` of a `\r\n` the next chunk ends; the first line's three more a
    // byte order mark. The line's own length is measured once it ends.
    if (fault === undefined && pending.length > maxLineBytes + (ended === 0 ? 1 + BOM.length : 1)) fault = new LineTooLongError(maxLineBytes, ended + 1);
    if (batch.lines.length > 0) yield batch;
    if (fault !== undefined) throw fault;
  }
  if (pending.length === 0) return;
  const last = lineText(pending.take(new Uint8Array(0)), ended + 1);
  if (last.length > 0) yield { lines: [last], numbers: [ended + 1] };

  /**
   * The lines of `bytes` (each ended by a line feed, none the first line), decoded in one call as a chunk of
   * many lines is, handed to `add` in order; returns the number of the last. Throws for the first line at fault.
   */
  function splitLines(bytes: Uint8Array, before: number, add: (line: string) => void): number {
    let text: string;
    let invalid: number | undefined;
    try {
      text = decoder.decode(bytes);
    } catch {
      const valid = validLines(bytes);
      text = decoder.decode(bytes.subarray(0, valid.bytes));
      invalid = before + valid.count + 1;
    }
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      ended = ++before;
      const line = text.slice(start, end > start && text.charCodeAt(end - 1) === CR ? end - 1 : end);
      start = end + 1;
      // Measured in bytes only when its characters could come to more (a UTF-16 unit is at most 3 bytes).
      if (line.length * 3 > maxLineBytes && Buffer.byteLength(line) > maxLineBytes) throw new LineTooLongError(maxLineBytes, before);
      add(line);
    }
    if (invalid !== undefined) throw new InvalidUtf8Error(invalid);
    return before;
  }
}

const startsWithBom = (bytes: Uint8Array) => bytes.length >= BOM.length && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2];

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

/** The bytes of an unfinished line, in one buffer grown by doubling. */
class ByteLine {
  private bytes = new Uint8Array(0);
  length = 0;

  append(piece: Uint8Array): void {
    if (piece.length === 0) return;
    if (this.length + piece.length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.length + piece.length, 2 * this.bytes.length, 256));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(piece, this.length);
    this.length += piece.length;
  }

  /** The line's bytes followed by `end`, and the line emptied (`end` itself when nothing was pending). */
  take(end: Uint8Array): Uint8Array {
    if (this.length === 0) return end;
    this.append(end);
    const line = this.bytes.subarray(0, this.length);
    this.bytes = new Uint8Array(0);
    this.length = 0;
    return line;
  }
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
