import { parseRowJson } from '../../lib/exact-json';
import { ServiceError } from '../errors';
import { SLICE_ROWS } from './slices';

/** One NDJSON line as a row (integers beyond 2^53 kept exact). Throws invalid_json naming the line. */
export function parseNdjsonRow(line: string, lineNumber: number): unknown {
  try {
    return parseRowJson(line);
  } catch (error) {
    throw new ServiceError('invalid_json', `line ${lineNumber} is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * NDJSON rows in slices of SLICE_ROWS, filled synchronously from whole batches of lines (readLineBatches):
 * no promise per row, which a million-line file would feel. `read.lines` counts the lines read, from those
 * read before (an HTTP body's first line), for the caller's own errors. Throws invalid_json naming the line.
 */
export async function* ndjsonRowSlices(batches: AsyncIterable<readonly string[]>, read = { lines: 0 }): AsyncGenerator<unknown[]> {
  let slice: unknown[] = [];
  for await (const lines of batches) {
    for (const line of lines) {
      slice.push(parseNdjsonRow(line, ++read.lines));
      if (slice.length === SLICE_ROWS) {
        yield slice;
        slice = [];
      }
    }
  }
  if (slice.length > 0) yield slice;
}
