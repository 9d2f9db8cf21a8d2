import type { ImportOptions } from './import-options';
import type { Limits } from '../../config/config';
import { InvalidUtf8Error, LineTooLongError, readLineBatches, type LineBatch } from '../../lib/lines';
import { ServiceError, validationFailed } from '../errors';
import type { RowSlices } from './import-writer';
import { ndjsonRowSlices, parseNdjsonRow } from './ndjson-rows';

/**
 * The lines of an NDJSON import, an HTTP body or an `importd import` file alike, in batches numbered as an
 * editor numbers them. No line may be longer than the larger of a row and an HTTP body's first line (meta and
 * originalSchema, with room for the JSON around them). Throws payload_too_large naming a line past that,
 * invalid_json naming a line that is not UTF-8.
 */
export async function* ndjsonLineBatches(chunks: AsyncIterable<Uint8Array>, limits: Limits): AsyncGenerator<LineBatch> {
  try {
    yield* readLineBatches(chunks, Math.max(limits.rowBytes, limits.metaBytes + limits.schemaBytes + 16 * 1024));
  } catch (error) {
    if (error instanceof LineTooLongError) throw new ServiceError('payload_too_large', error.message);
    if (error instanceof InvalidUtf8Error) throw new ServiceError('invalid_json', error.message);
    throw error;
  }
}

/**
 * A streamed import (POST /imports as `application/x-ndjson`): a first line `{ "meta": ..., "originalSchema":
 * ... }`, then one row object a line, read and parsed only as the writer asks for the next slice, so a body
 * of any size is ingested in bounded memory. The first line is read at once. Throws invalid_json (naming the
 * line), validation_failed (the first line is not an object of meta and originalSchema alone),
 * payload_too_large (a line over the limit); the rows throw the same as they are read.
 */
const HEADER_MEMBERS = new Set(['meta', 'originalSchema', 'mode', 'dryRun']);

export async function ndjsonImport(chunks: AsyncIterable<Uint8Array>, limits: Limits): Promise<{ meta?: unknown; originalSchema?: unknown; rows: RowSlices } & ImportOptions> {
  const batches = ndjsonLineBatches(chunks, limits);
  const first = await batches.next();
  const firstBatch = first.done ? undefined : first.value;
  const header = firstBatch === undefined ? {} : parseNdjsonRow(firstBatch.lines[0]!, firstBatch.numbers[0]!);
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    throw validationFailed([{ path: '', message: 'the first line must be an object { meta, originalSchema }' }]);
  }
  // A row sent as the first line (no header line) would otherwise be taken for the header and lost.
  const stray = Object.keys(header).find((key) => !HEADER_MEMBERS.has(key));
  if (stray !== undefined) {
    throw validationFailed([{ path: stray, message: 'the first line must be { meta, originalSchema } (the rows follow it, one a line); it has other members' }]);
  }
  async function* rowLines(): AsyncGenerator<LineBatch> {
    if (firstBatch === undefined) return;
    yield { lines: firstBatch.lines.slice(1), numbers: firstBatch.numbers.slice(1) };
    yield* batches;
  }
  const { meta, originalSchema, mode, dryRun } = header as Record<string, unknown>;
  return { meta, originalSchema, mode, dryRun, rows: ndjsonRowSlices(rowLines(), limits.rowBytes) };
}
