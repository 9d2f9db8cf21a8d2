import type { LineBatch } from '../../lib/lines';
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
 * batches of lines (ndjsonLineBatches): no promise per row, which a million-line file would feel. Throws
 * invalid_json naming the line as it is read; a slice's other refusals are thrown when it is checked.
 */
export async function* ndjsonRowSlices(batches: AsyncIterable<LineBatch>, maxRowBytes: number): AsyncGenerator<ReadSlice> {
  const reader = new JsonRowReader(maxRowBytes);
  // The number of the line being read: one closure for every line, not one a line.
  let number = 0;
  const invalid = (message: string) => invalidLine(number, message);
  for await (const { lines, numbers } of batches) {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      number = numbers[i]!;
      reader.read(line, 0, line.length, invalid);
      if (reader.length === SLICE_ROWS) yield reader.take();
    }
  }
  if (reader.length > 0) yield reader.take();
}
