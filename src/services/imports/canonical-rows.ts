import { skipWhitespace, valueEnd } from '../../lib/json-body';
import { utf8Over } from '../limits';
import { CellStatsCollector, type Column } from './cell-stats';
import type { CellStats } from './schemas';

// The fast path of small JSON imports. A row is stored as JSON.stringify(JSON.parse(its text)); when the text
// is already what JSON.stringify writes (no whitespace, numbers in their shortest form, only the escapes it
// emits, no key repeated or reordered), that is the text itself. Nearly every SDK body is written so. This
// scan checks rows straight from the body's text and feeds the statistics as it goes: no parse, no object per
// row, no stringify. Anything else (a space in a row, a nested cell, `1.50`, a key written twice, invalid
// JSON, a row over the limit, ...) gives up on the whole body, and the general path (JSON.parse, checkRows)
// then stores or refuses it exactly as before: this path only ever accepts what that one stores unchanged.

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
/** More significant digits than this and a number may not print back as written. */
const MAX_DIGITS = 15;
/** 0.000001 prints as written, 0.0000001 as 1e-7. */
const MAX_LEADING_FRACTION_ZEROS = 5;
const CONTROL = /[\u0000-\u001f]/g;

export interface CanonicalBody {
  meta?: unknown;
  originalSchema?: unknown;
  /** Each row's JSON text, as stored. */
  texts: string[];
  stats: CellStats;
}

/** Gives up on the body (the general path takes it). */
class NotCanonical extends Error {}
const notCanonical = new NotCanonical();

/**
 * A JSON import body `{ rows, meta, originalSchema }` whose rows are all valid, within `maxRowBytes` and
 * written as JSON.stringify writes them: the rows' texts and statistics, and the other members parsed.
 * Undefined for any other body.
 */
export function checkCanonicalBody(text: string, maxRowBytes: number): CanonicalBody | undefined {
  try {
    return scanBody(text, maxRowBytes);
  } catch (error) {
    if (error instanceof NotCanonical) return undefined;
    throw error;
  }
}

function scanBody(text: string, maxRowBytes: number): CanonicalBody {
  const members = new Map<string, unknown>();
  let rows: { texts: string[]; stats: CellStats } | undefined;
  let i = skipWhitespace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) throw notCanonical;
  i = skipWhitespace(text, i + 1);
  while (text.charCodeAt(i) !== CLOSE_BRACE) {
    if (text.charCodeAt(i) !== QUOTE) throw notCanonical;
    const keyEnd = text.indexOf('"', i + 1);
    if (keyEnd < 0) throw notCanonical;
    const key = text.slice(i + 1, keyEnd);
    if (/[\\\u0000-\u001f]/.test(key) || members.has(key)) throw notCanonical;
    i = skipWhitespace(text, keyEnd + 1);
    if (text.charCodeAt(i) !== COLON) throw notCanonical;
    i = skipWhitespace(text, i + 1);
    if (key === 'rows') {
      if (text.charCodeAt(i) !== OPEN_BRACKET) throw notCanonical;
      const scanned = scanRows(text, i, maxRowBytes);
      rows = scanned;
      i = scanned.end;
      members.set(key, undefined);
    } else {
      const end = memberEnd(text, i);
      members.set(key, parseMember(text.slice(i, end)));
      i = end;
    }
    i = skipWhitespace(text, i);
    if (text.charCodeAt(i) === COMMA) {
      i = skipWhitespace(text, i + 1);
      if (text.charCodeAt(i) !== QUOTE) throw notCanonical;
    } else if (text.charCodeAt(i) !== CLOSE_BRACE) {
      throw notCanonical;
    }
  }
  if (skipWhitespace(text, i + 1) !== text.length || rows === undefined) throw notCanonical;
  return { meta: members.get('meta'), originalSchema: members.get('originalSchema'), texts: rows.texts, stats: rows.stats };
}

function memberEnd(text: string, start: number): number {
  try {
    return valueEnd(text, start);
  } catch {
    throw notCanonical;
  }
}

function parseMember(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw notCanonical;
  }
}

/** The index of the next match of `pattern` from `from` (Infinity when none). */
function nextMatch(text: string, pattern: RegExp, from: number): number {
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? Infinity;
}

function nextIndexFrom(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at < 0 ? Infinity : at;
}

/**
 * The rows array that opens at `open`. Strings are skipped with indexOf; where the next backslash and the
 * next control character are is tracked ahead of the scan, so a row without either is never looked at
 * character by character except for its numbers.
 */
function scanRows(text: string, open: number, maxRowBytes: number): { texts: string[]; stats: CellStats; end: number } {
  const collector = new CellStatsCollector();
  const texts: string[] = [];
  // The keys of the last row, in order: the next row is expected to repeat them.
  const shape: Column[] = [];
  let i = skipWhitespace(text, open + 1);
  let control = nextMatch(text, CONTROL, i);
  let backslash = nextIndexFrom(text, '\\', i);
  let atSign = nextIndexFrom(text, '@', i);
  const escape = { kept: false };
  if (text.charCodeAt(i) === CLOSE_BRACKET) return { texts, stats: collector.result(0), end: i + 1 };
  for (;;) {
    if (text.charCodeAt(i) !== OPEN_BRACE) throw notCanonical;
    const rowStart = i;
    let reshaped = false;
    let cells = 0;
    i++;
    if (text.charCodeAt(i) !== CLOSE_BRACE) {
      for (;;) {
        if (text.charCodeAt(i) !== QUOTE) throw notCanonical;
        let column = shape[cells];
        const keyStart = i + 1;
        if (column !== undefined && text.startsWith(column.key, keyStart) && text.charCodeAt(keyStart + column.key.length) === QUOTE) {
          i = keyStart + column.key.length + 1;
        } else {
          const keyEnd = text.indexOf('"', keyStart);
          // An escaped key, or one that may be an array index (JSON.parse would move it first).
          if (keyEnd < 0 || backslash < keyEnd || isDigit(text.charCodeAt(keyStart))) throw notCanonical;
          column = collector.column(text.slice(keyStart, keyEnd));
          shape[cells] = column;
          reshaped = true;
          i = keyEnd + 1;
        }
        if (text.charCodeAt(i) !== COLON) throw notCanonical;
        i++;
        const first = text.charCodeAt(i);
        if (first === QUOTE) {
          let end = text.indexOf('"', i + 1);
          if (end < 0) throw notCanonical;
          if (backslash < end) {
            end = escapedStringEnd(text, backslash, escape);
            if (atSign < i) atSign = nextIndexFrom(text, '@', i);
            // A character that JSON.stringify escapes and trim() keeps makes the cell a plain string, unless it
            // can still read as an e-mail: such a cell is not decoded.
            if (escape.kept && atSign > end) collector.addTyped(column, 'string');
            else collector.addTo(column, JSON.parse(text.slice(i, end)) as string);
            backslash = nextIndexFrom(text, '\\', end);
            i = end;
          } else {
            collector.addTo(column, text.slice(i + 1, end));
            i = end + 1;
          }
        } else if (first === MINUS || isDigit(first)) {
          i = canonicalNumberEnd(text, i);
          collector.addTyped(column, 'number');
        } else if (text.startsWith('true', i)) {
          collector.addTyped(column, 'boolean');
          i += 4;
        } else if (text.startsWith('false', i)) {
          collector.addTyped(column, 'boolean');
          i += 5;
        } else if (text.startsWith('null', i)) {
          collector.addTo(column, null);
          i += 4;
        } else {
          throw notCanonical;
        }
        cells++;
        const next = text.charCodeAt(i);
        if (next === CLOSE_BRACE) break;
        if (next !== COMMA) throw notCanonical;
        i++;
      }
    }
    i++;
    if (reshaped || cells < shape.length) {
      shape.length = cells;
      // A key written twice: JSON.parse keeps one member, at its first place, with its last value.
      if (reshaped && new Set(shape).size !== cells) throw notCanonical;
    }
    if (control < i) throw notCanonical;
    const row = text.slice(rowStart, i);
    if (utf8Over(row, maxRowBytes)) throw notCanonical;
    texts.push(row);
    i = skipWhitespace(text, i);
    const next = text.charCodeAt(i);
    if (next === CLOSE_BRACKET) return { texts, stats: collector.result(texts.length), end: i + 1 };
    if (next !== COMMA) throw notCanonical;
    i = skipWhitespace(text, i + 1);
    if (control < i) control = nextMatch(text, CONTROL, i);
  }
}

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

/**
 * The end (after its quote) of the string whose first backslash is at `backslash`, when every escape in it
 * is one JSON.stringify writes: \" \\ \b \f \n \r \t, and \u00xx (lower-case hex) for other control characters.
 * `escape.kept` tells whether one of them stands for a character trim() keeps (not \t \n \v \f \r).
 */
function escapedStringEnd(text: string, backslash: number, escape: { kept: boolean }): number {
  let i = backslash;
  escape.kept = false;
  for (;;) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) return i + 1;
    if (code !== BACKSLASH) {
      if (Number.isNaN(code)) throw notCanonical;
      i++;
      continue;
    }
    const escaped = text.charCodeAt(i + 1);
    if (escaped === 110 || escaped === 116 || escaped === 114 || escaped === 102) {
      // \n \t \r \f
      i += 2;
    } else if (escaped === QUOTE || escaped === BACKSLASH || escaped === 98) {
      // \" \\ \b
      escape.kept = true;
      i += 2;
    } else if (escaped === 117 && isShortControlEscape(text.slice(i + 2, i + 6))) {
      // \u000b is a vertical tab, trimmed; every other control character is kept.
      escape.kept ||= !text.startsWith('000b', i + 2);
      i += 6;
    } else {
      throw notCanonical;
    }
  }
}

/** `00xx` for a control character JSON.stringify escapes with \u (not \b \t \n \f \r). */
function isShortControlEscape(hex: string): boolean {
  if (!/^00[01][0-9a-f]$/.test(hex)) return false;
  const code = parseInt(hex, 16);
  return code !== 8 && code !== 9 && code !== 10 && code !== 12 && code !== 13;
}

/**
 * The end of the number at `start` when it is written as JSON.stringify writes it: no exponent, no `-0`, no
 * trailing fraction zero, at most 15 significant digits (so it is the shortest text of its double), and below
 * 1e-6 not at all (JSON.stringify writes an exponent there). Bigger integers take the general path, which keeps
 * them exact.
 */
function canonicalNumberEnd(text: string, start: number): number {
  let i = text.charCodeAt(start) === MINUS ? start + 1 : start;
  let digits = 0;
  const zero = text.charCodeAt(i) === ZERO;
  if (zero) i++;
  else {
    while (isDigit(text.charCodeAt(i))) {
      i++;
      digits++;
    }
    if (digits === 0) throw notCanonical;
  }
  if (text.charCodeAt(i) === DOT) {
    i++;
    const fraction = i;
    while (text.charCodeAt(i) === ZERO) i++;
    if (zero && i - fraction > MAX_LEADING_FRACTION_ZEROS) throw notCanonical;
    if (!zero) digits += i - fraction;
    while (isDigit(text.charCodeAt(i))) {
      i++;
      digits++;
    }
    if (i === fraction || text.charCodeAt(i - 1) === ZERO) throw notCanonical;
  } else if (zero && start !== i - 1) {
    throw notCanonical;
  }
  if (digits > MAX_DIGITS) throw notCanonical;
  return i;
}
