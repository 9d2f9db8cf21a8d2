import { ServiceError } from '../errors';
import type { ReadSlice } from './check-rows';
import { JsonRowReader } from './json-rows';
import { SLICE_ROWS } from './slices';

const invalidLine = (lineNumber: number, message: string) => new ServiceError('invalid_json', `line ${lineNumber} is not valid JSON: ${message}`);

/** One NDJSON line parsed (the first line of a body: meta and originalSchema). Throws invalid_json naming the line. */
export function parseNdjsonRow(line: string, lineNumber: number): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw invalidLine(lineNumber, (error as Error).message);
  }
}

/**
 * NDJSON rows, one a line, read (JsonRowReader) in slices of SLICE_ROWS, filled synchronously from whole
 * batches of lines (readLineBatches): no promise per row, which a million-line file would feel. `read.lines`
 * counts the lines read, from those read before (an HTTP body's first line), for the caller's own errors.
 * Throws invalid_json naming the line as it is read; a slice's other refusals are thrown when it is checked.
 */
export async function* ndjsonRowSlices(batches: AsyncIterable<readonly string[]>, maxRowBytes: number, read = { lines: 0 }): AsyncGenerator<ReadSlice> {
  const reader = new JsonRowReader(maxRowBytes);
  const invalid = (message: string) => invalidLine(read.lines, message);
  for await (const lines of batches) {
    for (const line of lines) {
      read.lines++;
      reader.read(line, 0, line.length, invalid);
      if (reader.length === SLICE_ROWS) yield reader.take();
    }
  }
  if (reader.length > 0) yield reader.take();
}
