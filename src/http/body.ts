import type { Context } from 'hono';
import { JsonSyntaxError, parseRow, splitJsonBody } from '../lib/json-body';
import { ServiceError, validationFailed } from '../services/errors';
import { SLICE_ROWS, type RowSlices } from '../services/imports';

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;
const invalidJson = (error: JsonSyntaxError) => new ServiceError('invalid_json', `the request body is not valid JSON: ${error.message}`);

export interface ImportBody {
  meta?: unknown;
  originalSchema?: unknown;
  /** Parsed slice by slice while the import is written: no single parse of the whole body, no zod pass. */
  rows: RowSlices;
}

/**
 * Reads a POST /imports body `{ rows, meta, originalSchema }`. The members other than `rows` are parsed at
 * once; the rows are located by a scan that yields to the event loop and parsed one slice at a time as the
 * writer asks for them. Throws unsupported_media_type, invalid_json (also from a slice, mid-write: the
 * writer then aborts the import), validation_failed (not an object, no rows array).
 */
export async function readImportBody(c: Context): Promise<ImportBody> {
  if (!JSON_TYPE.test(c.req.header('Content-Type') ?? '')) {
    throw new ServiceError('unsupported_media_type', 'the request body must be sent as application/json');
  }
  const text = await c.req.text();
  let split;
  try {
    split = await splitJsonBody(text, SLICE_ROWS);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw invalidJson(error);
    throw error;
  }
  if (split.notAnObject) throw validationFailed([{ path: '', message: 'the body must be an object { rows, meta, originalSchema }' }]);
  const { starts, ends } = split.rows ?? {};
  if (!starts || !ends) throw validationFailed([{ path: 'rows', message: 'must be an array of row objects' }]);
  function* slices() {
    for (let first = 0; first < starts!.length; first += SLICE_ROWS) {
      const slice: unknown[] = [];
      try {
        for (let i = first; i < Math.min(first + SLICE_ROWS, starts!.length); i++) slice.push(parseRow(text, starts![i]!, ends![i]!));
      } catch (error) {
        if (error instanceof JsonSyntaxError) throw invalidJson(error);
        throw error;
      }
      yield slice;
    }
  }
  return { meta: split.members.meta, originalSchema: split.members.originalSchema, rows: slices() };
}
