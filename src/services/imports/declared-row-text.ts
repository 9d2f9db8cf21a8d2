import type { Cell, CompiledRules, RowValidator } from '../../rules';
import type { CellStatsCollector, Column } from './cell-stats';
import { QUOTE, BACKSLASH, COMMA, COLON, OPEN_BRACE, CLOSE_BRACE, MINUS, ZERO, isDigit, knownKeyEnd, nextIndexFrom } from '../../lib/json-text';

// The rules' fast path on the server. The rows validateRows reads are texts as JSON.stringify writes them (the
// RowChecker's output: a flat object, no whitespace, only the escapes it writes, numbers in their shortest form), so
// a row's cells are read straight from its text (no object per row) into the validator's declared cells, and
// the row is written back by replacing, in its text, only the cells the rules changed: the text JSON.stringify
// writes for the transformed row, without building it. A row this path does not take (an escaped key, a key
// written twice, an integer past 2^53, whose double is not its text) goes through JSON.parse as before.

/** Digits a number may run to and still be read exactly as a double (beyond, rowJsonText keeps its text). */
const MAX_EXACT_DIGITS = 15;

const STRING = 0;
const ESCAPED = 1;
const NUMBER = 2;
const TRUE = 3;
const FALSE = 4;
const NULL = 5;

/**
 * Reads rows of one import into a RowValidator's declared cells, and writes the stored text and statistics of
 * each from its own text. Rows are best given in order: the keys of a row are expected to repeat the last's.
 */
export class DeclaredRowText {
  /** The keys of the row read, in order, and where each of its values starts and ends in its text. */
  private readonly keys: string[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly kinds: number[] = [];
  private cellCount = 0;
  /** For the keys of the last row: each cell's declared index (-1: an extra column), each declared cell's place. */
  private declaredAt: number[] = [];
  private rowAt: number[];
  /** Whether those keys are declared ones only, in declared order (a row kept as sent when nothing changes). */
  private inDeclaredOrder = false;
  /** False when `keys` were left by a row this path did not take: its cells are not placed. */
  private placed = false;
  private readonly extraColumns: (Column | undefined)[] = [];
  private readonly declaredColumns: (Column | undefined)[];
  private readonly quotedKeys: string[];
  private readonly drop: boolean;
  private text = '';

  constructor(
    private readonly rules: CompiledRules,
    private readonly validator: RowValidator,
    private readonly stats: CellStatsCollector,
  ) {
    this.rowAt = rules.cells.map(() => -1);
    this.declaredColumns = rules.cells.map(() => undefined);
    this.quotedKeys = rules.cells.map((cell) => JSON.stringify(cell.key));
    this.drop = rules.extraColumns === 'drop';
  }

  /** Whether this path can take the rows of these rules: a declared key that is an array index would move in the stored object. */
  static takes(rules: CompiledRules): boolean {
    return rules.cells.every((cell) => !/^\d/.test(cell.key));
  }

  /** Reads a row's cells into the validator's values; false (nothing read) for a row this path does not take. */
  read(text: string): boolean {
    if (!this.scan(text)) return false;
    this.text = text;
    const { values } = this.validator;
    const { rowAt } = this;
    for (let i = 0; i < values.length; i++) values[i] = rowAt[i]! < 0 ? undefined : this.value(rowAt[i]!);
    return true;
  }

  /** The text to store for the row read, once the validator has checked it: its own when no cell changed and none is dropped. */
  stored(): string {
    const { values, changed } = this.validator;
    const { text, declaredAt } = this;
    let anyChange = false;
    for (let i = 0; i < changed.length && !anyChange; i++) anyChange = changed[i] === 1;
    if (this.drop) return anyChange || !this.inDeclaredOrder ? this.declaredText() : text;
    if (!anyChange) return text;
    let out = '';
    let from = 0;
    for (let c = 0; c < this.cellCount; c++) {
      const i = declaredAt[c]!;
      if (i < 0 || changed[i] === 0) continue;
      out += text.slice(from, this.starts[c]) + JSON.stringify(values[i]);
      from = this.ends[c]!;
    }
    out += text.slice(from, text.length - 1);
    return `${out}${this.absentDefaults(this.cellCount > 0)}}`;
  }

  /** The stored text of a row whose undeclared columns are dropped: its declared cells in declared order. */
  private declaredText(): string {
    const { values, changed } = this.validator;
    let out = '';
    for (let i = 0; i < values.length; i++) {
      const c = this.rowAt[i]!;
      if (c < 0) continue;
      const cell = changed[i] === 1 ? JSON.stringify(values[i]) : this.text.slice(this.starts[c], this.ends[c]);
      out += `${out === '' ? '' : ','}${this.quotedKeys[i]!}:${cell}`;
    }
    return `{${out}${this.absentDefaults(out !== '')}}`;
  }

  /** The cells a default gives an absent declared cell, after the row's own (where setting a member puts them). */
  private absentDefaults(afterCells: boolean): string {
    const { values, changed } = this.validator;
    let out = '';
    for (let i = 0; i < values.length; i++) {
      if (this.rowAt[i]! >= 0 || changed[i] === 0) continue;
      out += `${afterCells || out !== '' ? ',' : ''}${this.quotedKeys[i]!}:${JSON.stringify(values[i])}`;
    }
    return out;
  }

  /** Counts the cells of the row read, once checked, in the statistics: as CellStatsCollector.add over the stored row's members would. */
  count(): void {
    const { values } = this.validator;
    const { stats, declaredAt, rowAt } = this;
    if (this.drop) {
      for (let i = 0; i < values.length; i++) if (rowAt[i]! >= 0) stats.addTo(this.declaredColumn(i), values[i]!);
    } else {
      for (let c = 0; c < this.cellCount; c++) {
        const i = declaredAt[c]!;
        if (i >= 0) stats.addTo(this.declaredColumn(i), values[i]!);
        else stats.addTo((this.extraColumns[c] ??= stats.column(this.keys[c]!)), this.value(c));
      }
    }
    for (let i = 0; i < values.length; i++) if (rowAt[i]! < 0 && this.validator.changed[i] === 1) stats.addTo(this.declaredColumn(i), values[i]!);
  }

  private declaredColumn(i: number): Column {
    return (this.declaredColumns[i] ??= this.stats.column(this.rules.cells[i]!.key));
  }

  /** The value of the row's cell `c`. */
  private value(c: number): Cell {
    const { text } = this;
    const start = this.starts[c]!;
    const end = this.ends[c]!;
    switch (this.kinds[c]) {
      case STRING:
        return text.slice(start + 1, end - 1);
      case ESCAPED:
        return JSON.parse(text.slice(start, end)) as string;
      case NUMBER:
        return numberAt(text, start, end);
      case TRUE:
        return true;
      case FALSE:
        return false;
      default:
        return null;
    }
  }

  /** Finds the row's cells; false for a text this path does not take (the next row then places its keys afresh). */
  private scan(text: string): boolean {
    if (this.cells(text)) return true;
    this.keys.length = 0;
    this.placed = false;
    return false;
  }

  private cells(text: string): boolean {
    const { keys, starts, ends, kinds } = this;
    if (text.charCodeAt(0) !== OPEN_BRACE) return false;
    // Where the next backslash is: most rows have none, and their strings are then never read character by character.
    let backslash = nextIndexFrom(text, '\\', 0);
    let i = 1;
    let cells = 0;
    let reshaped = false;
    if (text.charCodeAt(i) !== CLOSE_BRACE) {
      for (;;) {
        if (text.charCodeAt(i) !== QUOTE) return false;
        const keyStart = i + 1;
        const knownEnd = knownKeyEnd(text, keyStart, keys[cells]);
        if (knownEnd >= 0) i = knownEnd;
        else {
          const keyEnd = text.indexOf('"', keyStart);
          if (keyEnd < 0 || backslash < keyEnd) return false;
          keys[cells] = text.slice(keyStart, keyEnd);
          reshaped = true;
          i = keyEnd + 1;
        }
        if (text.charCodeAt(i) !== COLON) return false;
        starts[cells] = ++i;
        const first = text.charCodeAt(i);
        if (first === QUOTE) {
          const end = text.indexOf('"', i + 1);
          if (end < 0) return false;
          if (backslash < end) {
            i = escapedStringEnd(text, i + 1);
            if (i < 0) return false;
            backslash = nextIndexFrom(text, '\\', i);
            kinds[cells] = ESCAPED;
          } else {
            i = end + 1;
            kinds[cells] = STRING;
          }
        } else if (first === MINUS || isDigit(first)) {
          i = numberEnd(text, i);
          if (i < 0) return false;
          kinds[cells] = NUMBER;
        } else if (text.startsWith('true', i)) {
          i += 4;
          kinds[cells] = TRUE;
        } else if (text.startsWith('false', i)) {
          i += 5;
          kinds[cells] = FALSE;
        } else if (text.startsWith('null', i)) {
          i += 4;
          kinds[cells] = NULL;
        } else return false;
        ends[cells++] = i;
        const next = text.charCodeAt(i);
        if (next === CLOSE_BRACE) break;
        if (next !== COMMA) return false;
        i++;
      }
    }
    if (i + 1 !== text.length) return false;
    if (cells !== keys.length) {
      keys.length = cells;
      reshaped = true;
    }
    this.cellCount = cells;
    return (reshaped || !this.placed) ? this.placeKeys() : true;
  }

  /** Places the declared cells among the new keys of a row; false when a declared key is written twice. */
  private placeKeys(): boolean {
    const { cells } = this.rules;
    this.rowAt.fill(-1);
    this.declaredAt = this.keys.map((key) => cells.findIndex((cell) => cell.key === key));
    this.extraColumns.length = 0;
    let previous = -1;
    this.inDeclaredOrder = true;
    for (let c = 0; c < this.declaredAt.length; c++) {
      const i = this.declaredAt[c]!;
      if (i < 0) {
        this.inDeclaredOrder = false;
        continue;
      }
      if (this.rowAt[i]! >= 0) {
        // Not a row JSON.stringify writes.
        return false;
      }
      this.rowAt[i] = c;
      if (i < previous) this.inDeclaredOrder = false;
      previous = i;
    }
    this.placed = true;
    return true;
  }
}

/** The end of the number at `start`; -1 when it may be an integer a double does not hold exactly. */
function numberEnd(text: string, start: number): number {
  let i = start + 1;
  let run = isDigit(text.charCodeAt(start)) ? 1 : 0;
  for (;;) {
    const code = text.charCodeAt(i);
    if (isDigit(code)) {
      if (++run > MAX_EXACT_DIGITS) return -1;
    } else if (code === 46 || code === 101 || code === 69 || code === 43 || code === MINUS) run = 0;
    else return i;
    i++;
  }
}

/** The value of the number text[start, end): its digits read directly when it is a small integer. */
function numberAt(text: string, start: number, end: number): number {
  if (end - start > 9) return Number(text.slice(start, end));
  let n = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) return Number(text.slice(start, end));
    n = n * 10 + code - ZERO;
  }
  return n;
}

/** The end (after its quote) of the escaped string whose text starts at `from`; -1 when it does not end. */
function escapedStringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === QUOTE) return i + 1;
  }
  return -1;
}
