import { pipeline, Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { setOwn } from '../../lib/own-member';
import { ServiceError, validationFailed } from '../errors';

export interface CsvOptions {
  delimiter: string;
  /** The line (1-based) that holds the header; the lines before it are skipped. */
  headerRow?: number;
  maxRowBytes: number;
}

/**
 * CSV records as objects keyed by the header row, in slices of `sliceRows` (the last may be shorter): gathered
 * here rather than by a generator of their own, each row costs one promise (the parser's) instead of one a
 * layer. Every cell is a string, as in the file. A record is read
 * whole before its row's size is checked, so the parser stops past twice a row's limit (memory stays bounded
 * by it, whatever the length of a line or of a quoted cell never closed: payload_too_large naming the line reached; a
 * row between the two is refused by the import's row check). Throws validation_failed, payload_too_large.
 */
export async function* csvRowSlices(input: AsyncIterable<string | Uint8Array>, options: CsvOptions, sliceRows: number): AsyncGenerator<Record<string, string>[]> {
  const { delimiter, headerRow = 1, maxRowBytes } = options;
  const settings = { bom: true, delimiter, skip_empty_lines: true, max_record_size: 2 * maxRowBytes, from_line: headerRow };
  // pipeline, not pipe: a failed read (payload_too_large) destroys the parser with that error.
  const parser = pipeline(Readable.from(input), parse(settings), () => {});
  let header: string[] | undefined;
  let slice: Record<string, string>[] = [];
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (header === undefined) {
        const duplicate = record.find((key, i) => record.indexOf(key) !== i);
        if (duplicate !== undefined) throw validationFailed([{ path: 'header', message: `column ${JSON.stringify(duplicate)} appears twice` }]);
        header = record;
        continue;
      }
      // Built here rather than by the parser, whose assignment would make a `__proto__` column the prototype.
      const row: Record<string, string> = {};
      for (let i = 0; i < record.length; i++) {
        const key = header[i]!;
        if (key === '__proto__') setOwn(row, key, record[i]!);
        else row[key] = record[i]!;
      }
      slice.push(row);
      if (slice.length === sliceRows) {
        yield slice;
        slice = [];
      }
    }
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    const { code, lines } = error as { code?: string; lines?: number };
    if (code === 'CSV_MAX_RECORD_SIZE') {
      throw new ServiceError('payload_too_large', `a row of the file (read up to its line ${lines}) is longer than a row may be (${maxRowBytes} bytes, IMPORTD_MAX_ROW_BYTES): is it a CSV file, with its quotes closed?`);
    }
    throw validationFailed([{ path: 'file', message: (error as Error).message }]);
  }
  if (slice.length > 0) yield slice;
}
