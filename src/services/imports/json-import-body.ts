import { mayHoldBigIntegers } from '../../lib/exact-json';
import { JsonSyntaxError, splitJsonBody, type SplitBody } from '../../lib/json-body';
import { ServiceError, validationFailed } from '../errors';
import type { ReadSlice, RowSlice } from './check-rows';
import { JsonRowReader } from './json-rows';
import { SLICE_ROWS, sliceRows } from './slices';
import type { ImportOptions } from './import-options';

export interface ImportBodyRows extends ImportOptions {
  meta?: unknown;
  originalSchema?: unknown;
  /** The rows, read one slice at a time as they are asked for (a row that is not valid JSON throws invalid_json then). */
  rows: Generator<RowSlice>;
  /**
   * Called before the first slice is read when a template's rules take the rows, whose statistics are then those of
   * the rows they store (validateRows): the slices read later count their columns' keys only (for the MAX_COLUMNS
   * refusal), not their cells too.
   */
  countKeysOnly?(): void;
}

const invalidJson = (message: string) => new ServiceError('invalid_json', `the request body is not valid JSON: ${message}`);

/**
 * Decodes (strict UTF-8: nothing is silently replaced) and splits a JSON import body `{ rows, meta,
 * originalSchema }`: the other members are parsed at once, the rows located without parsing (yielding to the
 * event loop as it scans) and read per slice later (JsonRowReader). With `readAhead` (on the request thread,
 * where nothing runs beside; the default), the split reads every slice whose rows the canonical scan takes as written
 * while it locates them: one pass instead of two; a slice with any other row is read again later, and a body
 * the scan leaves most rows of the first slice of is parsed whole instead (parsedWhole). The parse
 * worker reads every slice later, so its first slices go to the writer while it reads the rest. Throws
 * invalid_json, validation_failed (not an object, no rows array).
 */
export async function readImportBytes(body: Uint8Array | ArrayBuffer, maxRowBytes: number, readAhead = true): Promise<ImportBodyRows> {
  const text = decodeImportBytes(body);
  let ahead = readAhead ? new SlicesReadAhead(maxRowBytes) : undefined;
  let split: SplitBody;
  try {
    split = await splitRows(text, ahead);
  } catch (error) {
    if (error !== PARSE_WHOLE) throw error;
    const whole = parsedWhole(text);
    if (whole) return whole;
    ahead = undefined;
    split = await splitRows(text, undefined);
  }
  if (split.notAnObject) throw validationFailed([{ path: '', message: 'the body must be an object { rows, meta, originalSchema }' }]);
  const { starts, ends } = split.rows ?? {};
  if (!starts || !ends) throw validationFailed([{ path: 'rows', message: 'must be an array of row objects' }]);
  const read = ahead?.finish() ?? [];
  let keysOnly = false;
  function* slices() {
    const reader = new JsonRowReader(maxRowBytes, keysOnly);
    for (let first = 0; first < starts!.length; first += SLICE_ROWS) {
      const readBefore = read[first / SLICE_ROWS];
      if (readBefore) {
        yield readBefore;
        continue;
      }
      reader.restart(first);
      reader.readRows(text, starts!, ends!, first, Math.min(first + SLICE_ROWS, starts!.length), invalidJson);
      yield reader.take();
    }
  }
  return { meta: split.members.meta, originalSchema: split.members.originalSchema, mode: split.members.mode, dryRun: split.members.dryRun, rows: slices(), countKeysOnly: () => void (keysOnly = true) };
}

async function splitRows(text: string, ahead: SlicesReadAhead | undefined): Promise<SplitBody> {
  try {
    return await splitJsonBody(text, SLICE_ROWS * 4, ahead?.readRow);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw invalidJson(error.message);
    throw error;
  }
}

/** Thrown by the read-ahead when most rows of a body's first slice are written otherwise than JSON.stringify writes. */
const PARSE_WHOLE = new Error('parse the body whole');

/**
 * A body whose rows are mostly written otherwise than JSON.stringify writes (such as Python's json.dumps, with
 * its spaces), parsed with one JSON.parse: its rows are then checked as values (RowChecker), which stores,
 * counts and refuses them as reading them one by one would, for less than locating each row first. Undefined
 * when it is not valid, not an object with a rows array, or may hold integers JSON.parse would round: the
 * rows are then read one by one.
 */
function parsedWhole(text: string): ImportBodyRows | undefined {
  if (mayHoldBigIntegers(text)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { meta, originalSchema, mode, dryRun, rows } = body as Record<string, unknown>;
  return Array.isArray(rows) ? { meta, originalSchema, mode, dryRun, rows: sliceRows(rows) } : undefined;
}

/**
 * The slices of a rows array read while the split locates it: each one, or undefined when it must be read
 * again. Gives up (PARSE_WHOLE) when the scan leaves most rows of the first slice.
 */
class SlicesReadAhead {
  private reader: JsonRowReader;
  private slices: (ReadSlice | undefined)[] = [];
  private taken = true;
  /** Rows of the first slice the scan leaves. */
  private left = 0;

  constructor(private readonly maxRowBytes: number) {
    this.reader = new JsonRowReader(maxRowBytes);
  }

  readonly readRow = (text: string, start: number, index: number): number => {
    if (index === 0) {
      // `rows` written twice: the last one counts, as in JSON.parse.
      this.reader = new JsonRowReader(this.maxRowBytes);
      this.slices = [];
      this.left = 0;
    }
    if (index % SLICE_ROWS === 0) this.taken = true;
    // Every row of the first slice is tried, for the count of those left.
    const end = this.taken || index < SLICE_ROWS ? this.reader.readAsWritten(text, start) : -1;
    if (end < 0) {
      this.taken = false;
      if (index < SLICE_ROWS) this.left++;
    }
    if (index === SLICE_ROWS - 1 && this.left * 2 > SLICE_ROWS) throw PARSE_WHOLE;
    if ((index + 1) % SLICE_ROWS === 0) this.endSlice();
    return end;
  };

  finish(): (ReadSlice | undefined)[] {
    if (this.reader.length > 0 || !this.taken) this.endSlice();
    return this.slices;
  }

  private endSlice(): void {
    const slice = this.reader.take();
    this.slices.push(this.taken ? slice : undefined);
    this.taken = true;
  }
}

function decodeImportBytes(body: Uint8Array | ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new ServiceError('invalid_json', 'the request body is not valid UTF-8');
  }
}
