import { JsonSyntaxError, splitJsonBody } from '../../lib/json-body';
import { ServiceError, validationFailed } from '../errors';
import type { ReadSlice } from './check-rows';
import { JsonRowReader } from './json-rows';
import { SLICE_ROWS } from './slices';

export interface ImportBodyRows {
  meta?: unknown;
  originalSchema?: unknown;
  /** The rows, read one slice at a time as they are asked for (a row that is not valid JSON throws invalid_json then). */
  rows: Generator<ReadSlice>;
}

const invalidJson = (message: string) => new ServiceError('invalid_json', `the request body is not valid JSON: ${message}`);

/**
 * Decodes (strict UTF-8: nothing is silently replaced) and splits a JSON import body `{ rows, meta,
 * originalSchema }`: the other members are parsed at once, the rows located without parsing (yielding to the
 * event loop as it scans) and read per slice later (JsonRowReader). Used on the request thread for small
 * bodies and by the parse worker for large ones. Throws invalid_json, validation_failed (not an object, no
 * rows array).
 */
export async function readImportBytes(body: Uint8Array | ArrayBuffer, maxRowBytes: number): Promise<ImportBodyRows> {
  const text = decodeImportBytes(body);
  let split;
  try {
    split = await splitJsonBody(text, SLICE_ROWS * 4);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw invalidJson(error.message);
    throw error;
  }
  if (split.notAnObject) throw validationFailed([{ path: '', message: 'the body must be an object { rows, meta, originalSchema }' }]);
  const { starts, ends } = split.rows ?? {};
  if (!starts || !ends) throw validationFailed([{ path: 'rows', message: 'must be an array of row objects' }]);
  function* slices() {
    const reader = new JsonRowReader(maxRowBytes);
    for (let first = 0; first < starts!.length; first += SLICE_ROWS) {
      for (let i = first; i < Math.min(first + SLICE_ROWS, starts!.length); i++) reader.read(text, starts![i]!, ends![i]!, invalidJson);
      yield reader.take();
    }
  }
  return { meta: split.members.meta, originalSchema: split.members.originalSchema, rows: slices() };
}

function decodeImportBytes(body: Uint8Array | ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new ServiceError('invalid_json', 'the request body is not valid UTF-8');
  }
}
