import { skipWhitespace, stringEnd } from './json-body';
import { CLOSE_BRACE, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-text';

// A CSV export reads every stored row: JSON.parse builds an object of it only for the encoder to walk it
// once and drop it (for a 1 GiB export, tens of millions of short-lived objects and strings). Stored rows
// are flat objects written by JSON.stringify, so their members are read here straight from the text, in
// order: a string without a backslash is a slice of it, anything else the JSON.parse of its own text.

const LONG_INTEGER = /^-?\d{16,}$/;

/** A member's value in a flat row: an integer beyond 2^53 is a bigint (exact), as parseStoredRow gives it. */
export type FlatValue = string | number | bigint | boolean | null;

/**
 * Hands each member of the flat JSON object `text` (valid JSON: a stored row) to `member`, in the text's order.
 * False when `text` is not a flat object (a member is an object or an array, or the text is not an object) or
 * when `member` returned false: the caller then reads the row with JSON.parse, which also reports any syntax
 * error.
 */
export function readFlatObject(text: string, member: (key: string, value: FlatValue) => boolean): boolean {
  try {
    let i = skipWhitespace(text, 0);
    if (text.charCodeAt(i) !== OPEN_BRACE) return false;
    i = skipWhitespace(text, i + 1);
    if (text.charCodeAt(i) === CLOSE_BRACE) return skipWhitespace(text, i + 1) === text.length;
    for (;;) {
      if (text.charCodeAt(i) !== QUOTE) return false;
      const keyEnd = stringEnd(text, i);
      const key = stringAt(text, i, keyEnd);
      i = skipWhitespace(text, keyEnd);
      if (text.charCodeAt(i) !== COLON) return false;
      i = skipWhitespace(text, i + 1);
      const first = text.charCodeAt(i);
      let value: FlatValue;
      let end: number;
      if (first === QUOTE) {
        end = stringEnd(text, i);
        value = stringAt(text, i, end);
      } else if (first === OPEN_BRACE || first === OPEN_BRACKET) {
        return false;
      } else {
        end = literalEnd(text, i);
        const literal = literalValue(text.slice(i, end));
        if (literal === undefined) return false;
        value = literal;
      }
      if (!member(key, value)) return false;
      i = skipWhitespace(text, end);
      const next = text.charCodeAt(i);
      if (next === CLOSE_BRACE) return skipWhitespace(text, i + 1) === text.length;
      if (next !== COMMA) return false;
      i = skipWhitespace(text, i + 1);
    }
  } catch {
    return false;
  }
}

/** The string whose JSON text is `text` from `open` (its quote) to `end` (after its closing quote). */
function stringAt(text: string, open: number, end: number): string {
  const inside = text.slice(open + 1, end - 1);
  return inside.indexOf('\\') === -1 ? inside : (JSON.parse(text.slice(open, end)) as string);
}

/** The index just after a number, true, false or null starting at `start`. */
function literalEnd(text: string, start: number): number {
  let i = start;
  for (;;) {
    const c = text.charCodeAt(i);
    if (Number.isNaN(c) || c === COMMA || c === CLOSE_BRACE || c === 32 || c === 10 || c === 13 || c === 9) return i;
    i++;
  }
}

/** The value of a literal, as JSON.parse then parseStoredRow give it; undefined when it is none. */
function literalValue(literal: string): FlatValue | undefined {
  if (literal === 'null') return null;
  if (literal === 'true') return true;
  if (literal === 'false') return false;
  const first = literal.charCodeAt(0);
  if (first !== 45 && (first < 48 || first > 57)) return undefined;
  const number = Number(literal);
  if (Number.isNaN(number)) return undefined;
  // Kept exact when a double would print another number (as exact-json's stored-row reading does).
  if (literal.length >= 16 && LONG_INTEGER.test(literal) && String(number) !== literal) return BigInt(literal);
  return number;
}
