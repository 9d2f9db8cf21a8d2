import { utf8Over } from '../limits';
import type { CellStatsCollector, Column } from './cell-stats';
import { QUOTE, BACKSLASH, COMMA, COLON, OPEN_BRACE, CLOSE_BRACE, MINUS, DOT, ZERO, isDigit, knownKeyEnd, nextIndexFrom } from '../../lib/json-text';

// The fast path of every row read from its JSON text (a JSON body's rows, NDJSON lines, `importd import`
// files). A row is stored as JSON.stringify(JSON.parse(its text)); when the text is already what
// JSON.stringify writes (no whitespace, numbers in their shortest form, only the escapes it emits, no key
// repeated or reordered), that is the text itself. Nearly every row is written so. This scan checks a row
// straight from its text and feeds the statistics: no parse, no object per row, no stringify. Any other row
// (a space in it, a nested cell, `1.50`, a key written twice, invalid JSON, over the limit, ...) is left, with
// nothing of it counted, to the general path (JSON.parse, checkRow), which stores or refuses it exactly as
// before: this path only ever accepts what that one stores unchanged.

/** More significant digits than this and a number may not print back as written. */
const MAX_DIGITS = 15;
/** 0.000001 prints as written, 0.0000001 as 1e-7. */
const MAX_LEADING_FRACTION_ZEROS = 5;
const CONTROL = /[\u0000-\u001f]/;

/** How a scanned cell is counted once its row is known to be canonical: read from its text only then. */
const TEXT = 0;
const ESCAPED = 1;
const NULL = 2;
const NUMBER = 3;
const BOOLEAN = 4;
const STRING = 5;

/**
 * Checks rows from their texts, one after another, and counts the cells of those it accepts. Rows of one text
 * are best given in order: where the next backslash and `@` are is tracked ahead of the scan, so a row without
 * either is never looked at character by character except for its numbers.
 */
export class CanonicalRowScanner {
  private text = '';
  private from = 0;
  private backslash = 0;
  private atSign = 0;
  private readonly escape = { kept: false };
  /** The keys of the last row, in order, and their columns: the next row is expected to repeat them. */
  private readonly keys: string[] = [];
  private readonly columns: (Column | undefined)[] = [];
  /** False when `keys` were left by a refused row: not known to hold no key twice. */
  private checked = false;
  private stats: CellStatsCollector | undefined;
  /** The cells of the row being scanned (a string's text from its opening quote to after its closing one), counted once the whole row is accepted. */
  private readonly kinds: number[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private cellCount = 0;

  constructor(private readonly maxRowBytes: number) {}

  /**
   * The end of the row that starts at `start` when it is a valid row within the limit written as
   * JSON.stringify writes it (and ends at `end`, when given): its cells are then counted in `stats`. -1 for
   * any other text, nothing counted.
   */
  scan(text: string, start: number, stats: CellStatsCollector, end?: number): number {
    if (text !== this.text || start < this.from) {
      this.text = text;
      this.backslash = this.atSign = -1;
    }
    this.from = start;
    if (stats !== this.stats) {
      this.stats = stats;
      this.keys.length = this.columns.length = 0;
    }
    const rowEnd = this.cells(text, start);
    if (rowEnd < 0 || (end !== undefined && rowEnd !== end) || !this.withinRow(text.slice(start, rowEnd))) {
      // A row refused half-way may have left keys that were not checked for duplicates.
      this.checked = false;
      return -1;
    }
    this.count(stats);
    return rowEnd;
  }

  /** Where the next backslash is from `from` on (Infinity when none): looked for only when a string needs it. */
  private backslashFrom(from: number): number {
    if (this.backslash < from) this.backslash = nextIndexFrom(this.text, '\\', from);
    return this.backslash;
  }

  /** No control character (only inside a string can one get past the scan) and within the limit. */
  private withinRow(row: string): boolean {
    return !CONTROL.test(row) && !(row.length * 3 > this.maxRowBytes && utf8Over(row, this.maxRowBytes));
  }

  /** Scans the row's cells into kinds and values; its end, or -1. */
  private cells(text: string, start: number): number {
    const { keys, columns, kinds, starts, ends } = this;
    if (text.charCodeAt(start) !== OPEN_BRACE) return -1;
    let i = start + 1;
    let reshaped = false;
    let cells = 0;
    if (text.charCodeAt(i) !== CLOSE_BRACE) {
      for (;;) {
        if (text.charCodeAt(i) !== QUOTE) return -1;
        const keyStart = i + 1;
        const knownEnd = knownKeyEnd(text, keyStart, keys[cells]);
        if (knownEnd >= 0) i = knownEnd;
        else {
          const keyEnd = text.indexOf('"', keyStart);
          // An escaped key, or one that may be an array index (JSON.parse would move it first).
          if (keyEnd < 0 || this.backslashFrom(keyStart) < keyEnd || isDigit(text.charCodeAt(keyStart))) return -1;
          keys[cells] = text.slice(keyStart, keyEnd);
          columns[cells] = undefined;
          reshaped = true;
          i = keyEnd + 1;
        }
        if (text.charCodeAt(i) !== COLON) return -1;
        i++;
        const first = text.charCodeAt(i);
        if (first === QUOTE) {
          let end = text.indexOf('"', i + 1);
          if (end < 0) return -1;
          if (this.backslashFrom(i) < end) {
            end = escapedStringEnd(text, this.backslash, this.escape);
            if (end < 0) return -1;
            if (this.atSign < i) this.atSign = nextIndexFrom(text, '@', i);
            // A character that JSON.stringify escapes and trim() keeps makes the cell a plain string, unless it
            // can still read as an e-mail: such a cell is not decoded.
            kinds[cells] = this.escape.kept && this.atSign > end ? STRING : ESCAPED;
          } else {
            kinds[cells] = TEXT;
            end++;
          }
          starts[cells] = i;
          ends[cells] = end;
          i = end;
        } else if (first === MINUS || isDigit(first)) {
          i = canonicalNumberEnd(text, i);
          if (i < 0) return -1;
          kinds[cells] = NUMBER;
        } else if (text.startsWith('true', i)) {
          kinds[cells] = BOOLEAN;
          i += 4;
        } else if (text.startsWith('false', i)) {
          kinds[cells] = BOOLEAN;
          i += 5;
        } else if (text.startsWith('null', i)) {
          kinds[cells] = NULL;
          i += 4;
        } else {
          return -1;
        }
        cells++;
        const next = text.charCodeAt(i);
        if (next === CLOSE_BRACE) break;
        if (next !== COMMA) return -1;
        i++;
      }
    }
    if (cells !== keys.length) keys.length = columns.length = cells;
    // A key written twice: JSON.parse keeps one member, at its first place, with its last value.
    if ((reshaped || !this.checked) && new Set(keys).size !== cells) return -1;
    this.checked = true;
    this.cellCount = cells;
    return i + 1;
  }

  private count(stats: CellStatsCollector): void {
    const { keys, columns, kinds, starts, ends, text } = this;
    for (let c = 0; c < this.cellCount; c++) {
      const column = (columns[c] ??= stats.column(keys[c]!));
      if (stats.keysOnly) continue;
      const kind = kinds[c];
      if (kind === TEXT) stats.addTo(column, text.slice(starts[c]! + 1, ends[c]! - 1));
      else if (kind === ESCAPED) stats.addTo(column, JSON.parse(text.slice(starts[c], ends[c])) as string);
      else if (kind === NULL) stats.addTo(column, null);
      else stats.addTyped(column, kind === NUMBER ? 'number' : kind === BOOLEAN ? 'boolean' : 'string');
    }
  }
}

/**
 * The end (after its quote) of the string whose first backslash is at `backslash`, when every escape in it
 * is one JSON.stringify writes: \" \\ \b \f \n \r \t, and \u00xx (lower-case hex) for other control characters;
 * else -1. `escape.kept` tells whether one of them stands for a character trim() keeps (not \t \n \v \f \r).
 */
function escapedStringEnd(text: string, backslash: number, escape: { kept: boolean }): number {
  let i = backslash;
  escape.kept = false;
  for (;;) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) return i + 1;
    if (code !== BACKSLASH) {
      if (Number.isNaN(code)) return -1;
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
      return -1;
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
 * 1e-6 not at all (JSON.stringify writes an exponent there); else -1. Bigger integers take the general path,
 * which keeps them exact.
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
    if (digits === 0) return -1;
  }
  if (text.charCodeAt(i) === DOT) {
    i++;
    const fraction = i;
    while (text.charCodeAt(i) === ZERO) i++;
    if (zero && i - fraction > MAX_LEADING_FRACTION_ZEROS) return -1;
    if (!zero) digits += i - fraction;
    while (isDigit(text.charCodeAt(i))) {
      i++;
      digits++;
    }
    if (i === fraction || text.charCodeAt(i - 1) === ZERO) return -1;
  } else if (zero && start !== i - 1) {
    return -1;
  }
  if (digits > MAX_DIGITS) return -1;
  return i;
}
