import type { Limits } from '../../config/config';
import { InvalidUtf8Error, LineTooLongError, readLineBatches, type LineBatch } from '../../lib/lines';
import { ServiceError } from '../errors';

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
