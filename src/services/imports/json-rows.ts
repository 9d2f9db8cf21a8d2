import { mayHoldBigIntegers } from '../../lib/exact-json';
import type { ServiceError } from '../errors';
import { CanonicalRowScanner } from './canonical-rows';
import { CellStatsCollector } from './cell-stats';
import { checkRow, MAX_DETAILS, ReadSlice, type Refusals } from './check-rows';

/**
 * Reads one import's rows from their JSON texts, in order, one slice at a time: a row written as
 * JSON.stringify writes it is taken as it is (CanonicalRowScanner), any other is parsed and checked on its own
 * (checkRow), its neighbours staying on the fast path. Either way the row stores the same text, counts the
 * same and is refused the same. A slice whose row is not valid JSON throws at once; its other refusals wait in
 * the ReadSlice until the writer takes it (RowChecker), as when rows were parsed first and checked then.
 */
export class JsonRowReader {
  private readonly scanner: CanonicalRowScanner;
  private next = 0;
  private rows = 0;
  private texts: string[] = [];
  private stats: CellStatsCollector;
  private refusals: Refusals = {};

  /** `keysOnly`: the slices' statistics hold their columns' keys only (CellStatsCollector). */
  constructor(
    private readonly maxRowBytes: number,
    private readonly keysOnly = false,
  ) {
    this.scanner = new CanonicalRowScanner(maxRowBytes);
    this.stats = new CellStatsCollector(keysOnly);
  }

  /** Rows read into the current slice. */
  get length(): number {
    return this.rows;
  }

  /**
   * Reads the row text[start, end) into the current slice. Throws `invalid(JSON.parse's message)` when it is
   * not valid JSON.
   */
  read(text: string, start: number, end: number, invalid: (message: string) => ServiceError): void {
    if (this.readAsWritten(text, start, end) < 0) this.check(this.parse(text, start, end, invalid), text, start, end);
  }

  /**
   * Reads rows `first` to `last` (excluded) of a JSON array, text[starts[i], ends[i]), into the current slice.
   * From the second row the scan leaves, the rest are parsed with one JSON.parse (a body of rows written
   * otherwise than JSON.stringify writes them costs two parses a slice, not one a row; a lone such row, one);
   * when that fails, row by row, for the error of the first bad one. Throws `invalid(JSON.parse's message)`.
   */
  readRows(text: string, starts: readonly number[], ends: readonly number[], first: number, last: number, invalid: (message: string) => ServiceError): void {
    let parsed: unknown[] | undefined;
    let parsedFrom = -1;
    // Whether the rows parsed at once may hold integers that JSON.parse rounds (then each needs its text).
    let exact = false;
    let left = 0;
    for (let i = first; i < last; i++) {
      const start = starts[i]!;
      const end = ends[i]!;
      if (this.readAsWritten(text, start, end) >= 0) continue;
      if (++left === 2) {
        parsedFrom = i;
        const rows = text.slice(start, ends[last - 1]);
        try {
          parsed = JSON.parse(`[${rows}]`) as unknown[];
          exact = !mayHoldBigIntegers(rows);
        } catch {
          // Parsed row by row below: the error names what JSON.parse finds wrong in the first bad row.
        }
      }
      if (parsed === undefined) this.check(this.parse(text, start, end, invalid), text, start, end);
      else this.check(parsed[i - parsedFrom], exact ? undefined : text, start, end);
    }
  }

  /**
   * Reads the row that starts at `start` (and ends at `end`, when that is known) into the current slice when the
   * scan takes it as written: its end. -1 for any other row, which is not read: read() and readRows() check it,
   * the read-ahead drops the slice (to be read again with readRows()).
   */
  readAsWritten(text: string, start: number, end?: number): number {
    const rowEnd = this.scanner.scan(text, start, this.stats, end);
    if (rowEnd >= 0) {
      this.count();
      this.texts.push(rowText(text, start, rowEnd));
    }
    return rowEnd;
  }

  /** Counts the next row of the import into the current slice: its index in the import. */
  private count(): number {
    this.rows++;
    return this.next++;
  }

  private parse(text: string, start: number, end: number, invalid: (message: string) => ServiceError): unknown {
    try {
      return JSON.parse(rowText(text, start, end));
    } catch (error) {
      throw invalid((error as Error).message);
    }
  }

  /** The general check of a row the scan left (its text, when given: for integers beyond 2^53). */
  private check(row: unknown, text: string | undefined, start: number, end: number): void {
    const index = this.count();
    const { refusals } = this;
    // Past MAX_DETAILS refusals a slice's rows are only parsed: it will be refused anyway.
    if (refusals.details !== undefined && refusals.details.length >= MAX_DETAILS) return;
    const source = text === undefined ? undefined : rowText(text, start, end);
    const stored = checkRow(row, index, this.stats, this.maxRowBytes, refusals, source);
    if (stored !== undefined) this.texts.push(stored);
  }

  /** Drops the current slice, the next row read being row `index` of the import. */
  restart(index: number): void {
    this.take();
    this.next = index;
  }

  /** The current slice, and a new one begun. */
  take(): ReadSlice {
    const slice = new ReadSlice(this.texts, this.stats, this.refusals.details);
    this.texts = [];
    this.rows = 0;
    this.stats = new CellStatsCollector(this.keysOnly);
    this.refusals = {};
    return slice;
  }
}

/** text[start, end): the text itself when the row is all of it (an NDJSON line, a CLI file's line). */
function rowText(text: string, start: number, end: number): string {
  return end - start === text.length ? text : text.slice(start, end);
}
