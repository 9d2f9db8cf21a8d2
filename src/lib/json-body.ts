import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-text';

// Splits a JSON import body `{ "rows": [ {...}, ... ], ...members }` into its members without parsing the
// rows: a large body is then parsed row by row, in slices, instead of in one JSON.parse that would hold
// the event loop for hundreds of milliseconds. Strings are skipped with indexOf, so the scan costs a
// fraction of a parse. Each row is checked by JSON.parse when it is read, the rest of the structure here.

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

export interface SplitBody {
  /** Every top-level member except `rows`, parsed. */
  members: Record<string, unknown>;
  /** Where each element of `rows` starts and ends in the text; undefined when there is no rows array. */
  rows: { starts: number[]; ends: number[] } | undefined;
  /** `rows` when it is present but not an array (the caller reports it). */
  rowsValue?: unknown;
  /** True when the body is valid JSON but not an object (the caller reports it). */
  notAnObject?: boolean;
}

/**
 * Reads one element of `rows` where it starts (`index`: its place in the array) when it can: its end, or -1 to
 * have it located by the split.
 */
export type ElementReader = (text: string, start: number, index: number) => number;

/**
 * Splits the body, yielding to the event loop every `rowsPerSlice` rows. `readRow` may read each row as the
 * split meets it. Throws JsonSyntaxError.
 */
export async function splitJsonBody(text: string, rowsPerSlice = 5000, readRow?: ElementReader): Promise<SplitBody> {
  const result: SplitBody = { members: {}, rows: undefined };
  let i = skipWhitespace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) {
    parseJson(text);
    return { ...result, notAnObject: true };
  }
  i = skipWhitespace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return finish(text, i + 1, result);
  for (;;) {
    expect(text, i, QUOTE);
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWhitespace(text, keyEnd);
    expect(text, i, COLON);
    i = skipWhitespace(text, i + 1);
    if (key === 'rows' && text.charCodeAt(i) === OPEN_BRACKET) {
      const rows = { starts: [] as number[], ends: [] as number[] };
      i = await scanArray(text, i, rows, rowsPerSlice, readRow);
      result.rows = rows;
      delete result.rowsValue;
    } else {
      const end = valueEnd(text, i);
      const value = parseJson(text.slice(i, end));
      if (key === 'rows') {
        result.rows = undefined;
        result.rowsValue = value;
      } else {
        Object.defineProperty(result.members, key, { value, enumerable: true, configurable: true, writable: true });
      }
      i = end;
    }
    i = skipWhitespace(text, i);
    const next = text.charCodeAt(i);
    if (next === CLOSE_BRACE) return finish(text, i + 1, result);
    expect(text, i, COMMA);
    i = skipWhitespace(text, i + 1);
  }
}

async function scanArray(text: string, open: number, rows: { starts: number[]; ends: number[] }, rowsPerSlice: number, readRow?: ElementReader): Promise<number> {
  let i = skipWhitespace(text, open + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return i + 1;
  for (;;) {
    const read = readRow === undefined ? -1 : readRow(text, i, rows.starts.length);
    const end = read < 0 ? valueEnd(text, i) : read;
    rows.starts.push(i);
    rows.ends.push(end);
    if (rows.starts.length % rowsPerSlice === 0) await new Promise(setImmediate);
    i = skipWhitespace(text, end);
    const next = text.charCodeAt(i);
    if (next === CLOSE_BRACKET) return i + 1;
    expect(text, i, COMMA);
    i = skipWhitespace(text, i + 1);
  }
}

function finish(text: string, i: number, result: SplitBody): SplitBody {
  if (skipWhitespace(text, i) !== text.length) throw new JsonSyntaxError(`unexpected text after the JSON value at ${i}`);
  return result;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new JsonSyntaxError((error as Error).message);
  }
}

function expect(text: string, i: number, code: number): void {
  if (text.charCodeAt(i) !== code) {
    throw new JsonSyntaxError(i >= text.length ? 'unexpected end of JSON' : `expected "${String.fromCharCode(code)}" at ${i}`);
  }
}

/** The index of the first character at or after `i` that is not JSON whitespace. */
export function skipWhitespace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return i;
    i++;
  }
}

/** The index just after the string that starts (with its quote) at `open`. Throws JsonSyntaxError. */
export function stringEnd(text: string, open: number): number {
  let i = open;
  for (;;) {
    i = text.indexOf('"', i + 1);
    if (i === -1) throw new JsonSyntaxError('unterminated string');
    let backslashes = 0;
    while (text.charCodeAt(i - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return i + 1;
  }
}

/** The index just after the JSON value that starts at `start` (its inside is validated later by JSON.parse). */
function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return stringEnd(text, start);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let i = start;
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c) || c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === 32 || c === 10 || c === 13 || c === 9) break;
      i++;
    }
    if (i === start) throw new JsonSyntaxError(start >= text.length ? 'unexpected end of JSON' : `unexpected character at ${start}`);
    return i;
  }
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i) - 1;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
  }
  throw new JsonSyntaxError('unexpected end of JSON');
}
