import { mayHoldBigIntegers } from '../../lib/exact-json';
import { JsonSyntaxError, parseRow, splitJsonBody } from '../../lib/json-body';
import { ServiceError, validationFailed } from '../errors';
import { checkCanonicalBody } from './canonical-rows';
import type { CheckedRows, RowSlices } from './import-writer';
import { SLICE_ROWS, sliceRows } from './slices';

export interface SplitImportBody {
  meta?: unknown;
  originalSchema?: unknown;
  /** The rows, parsed one slice at a time as they are asked for (a bad one throws invalid_json then). */
  slices: Generator<readonly unknown[]>;
}

const invalidJson = (error: JsonSyntaxError) => new ServiceError('invalid_json', `the request body is not valid JSON: ${error.message}`);

/** Decodes (strict UTF-8: nothing is silently replaced) and splits a JSON import body. */
export async function splitImportBytes(body: Uint8Array | ArrayBuffer): Promise<SplitImportBody> {
  return splitImportBody(decodeImportBytes(body));
}

/**
 * splitImportBytes for a body read on the request thread: when its rows are written as JSON.stringify writes
 * them (nearly always), they are checked straight from the text and come back checked, with their
 * statistics (checkCanonicalBody); any other body is split as splitImportBytes does. The same rows are stored
 * and the same errors thrown either way.
 */
export async function readImportBytes(
  body: Uint8Array | ArrayBuffer,
  maxRowBytes: number,
): Promise<{ meta?: unknown; originalSchema?: unknown; rows: RowSlices | CheckedRows }> {
  const text = decodeImportBytes(body);
  const canonical = text.length <= ONE_PARSE_CHARS ? checkCanonicalBody(text, maxRowBytes) : undefined;
  if (canonical) {
    const { meta, originalSchema, texts, stats } = canonical;
    return { meta, originalSchema, rows: { slices: sliceRows(texts), stats: () => stats } };
  }
  const split = await splitImportBody(text);
  return { meta: split.meta, originalSchema: split.originalSchema, rows: split.slices };
}

function decodeImportBytes(body: Uint8Array | ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new ServiceError('invalid_json', 'the request body is not valid UTF-8');
  }
}

/**
 * Bodies up to this many characters are parsed whole when they can be: one JSON.parse of 2 MB takes a few
 * milliseconds (well within what one event-loop turn may take) and costs about half the scan and the
 * JSON.parse per row that a large body needs.
 */
export const ONE_PARSE_CHARS = 4 * 1024 * 1024;

/**
 * Splits a JSON import body `{ rows, meta, originalSchema }`: the other members are parsed at once, the rows
 * located without parsing (yielding to the event loop as it scans) and parsed per slice later. A body of at
 * most ONE_PARSE_CHARS is parsed whole instead, unless it holds integers that JSON.parse would round (then,
 * or when it is not a valid body, the split reads it and reports what is wrong). Used on the request thread
 * for small bodies and by the parse worker for large ones. Throws invalid_json, validation_failed (not an
 * object, no rows array).
 */
export async function splitImportBody(text: string): Promise<SplitImportBody> {
  const whole = text.length <= ONE_PARSE_CHARS && !mayHoldBigIntegers(text) ? parsedWhole(text) : undefined;
  if (whole) return { meta: whole.meta, originalSchema: whole.originalSchema, slices: sliceRows(whole.rows) };
  let split;
  try {
    split = await splitJsonBody(text, SLICE_ROWS * 4);
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
  return { meta: split.members.meta, originalSchema: split.members.originalSchema, slices: slices() };
}

/** The body parsed at once when it is an object with a rows array; undefined for anything else. */
function parsedWhole(text: string): { meta?: unknown; originalSchema?: unknown; rows: unknown[] } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { meta, originalSchema, rows } = body as Record<string, unknown>;
  return Array.isArray(rows) ? { meta, originalSchema, rows } : undefined;
}
