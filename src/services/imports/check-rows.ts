import { rowJsonText } from '../../lib/exact-json';
import { validationFailed, type ErrorDetail } from '../errors';
import { utf8Over } from '../limits';
import { CellStatsCollector, MAX_COLUMNS } from './cell-stats';
import type { RowTexts } from '../../db/store';
import type { CellStats } from './schemas';
import type { ValidatedRows } from './validate-rows';

/** A slice stops being checked once it has this many refusals (its other rows are still parsed). */
export const MAX_DETAILS = 20;

/** The refusals of one slice's rows, created with the first. */
export interface Refusals {
  details?: ErrorDetail[];
}

/**
 * The general check of one row, an already parsed value: an object of string, finite number, boolean or null
 * cells, fed to the statistics, returned as its JSON text (key order and keys such as `__proto__` kept:
 * JSON.parse made them own properties, and neither for-in nor JSON.stringify copies through a prototype;
 * integers beyond 2^53 kept as `source`, the text it was parsed from, wrote them). Undefined once the slice
 * has a refusal (this row's or an earlier one's, with path `rows.<index>[.<key>]`); a row over `maxRowBytes`
 * is refused.
 */
export function checkRow(row: unknown, index: number, stats: CellStatsCollector, maxRowBytes: number, refusals: Refusals, source?: string): string | undefined {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    (refusals.details ??= []).push({ path: `rows.${index}`, message: 'must be an object of column key -> cell value' });
    return undefined;
  }
  const cells = row as Record<string, unknown>;
  for (const key in cells) {
    const value = cells[key];
    const kind = typeof value;
    if (kind === 'string' || kind === 'boolean' || value === null || (kind === 'number' && Number.isFinite(value))) {
      stats.add(key, value as string | number | boolean | null);
    } else {
      (refusals.details ??= []).push({ path: `rows.${index}.${key}`, message: 'must be a string, a finite number, a boolean or null' });
    }
  }
  if (refusals.details !== undefined) return undefined;
  const text = rowJsonText(cells, source);
  if (!utf8Over(text, maxRowBytes)) return text;
  refusals.details = [{ path: `rows.${index}`, message: `must be at most ${maxRowBytes} bytes of JSON` }];
  return undefined;
}

/**
 * Rows read from their JSON texts (JsonRowReader): each row's text as stored, the slice's statistics and
 * refusals. The refusals are thrown only when the writer takes the slice, as for rows checked then.
 */
export class ReadSlice {
  constructor(
    readonly texts: string[],
    readonly stats: CellStatsCollector,
    readonly details: ErrorDetail[] | undefined,
  ) {}

  get length(): number {
    return this.texts.length;
  }
}

/** One slice of rows not yet checked: parsed values (CSV records) or rows read from their JSON texts. */
export type RowSlice = readonly unknown[] | ReadSlice;

/**
 * Checks consecutive slices of one import's rows, numbering them and collecting their statistics: the hot
 * loop of every import. Throws validation_failed with paths `rows.<index>[.<key>]` (the row's index in the
 * whole import; at most MAX_DETAILS rows with refusals a slice).
 */
export class RowChecker {
  private readonly collector = new CellStatsCollector();
  private checked = 0;

  constructor(private readonly maxRowBytes: number) {}

  check(slice: RowSlice): string[] {
    if (slice instanceof ReadSlice) {
      if (slice.details !== undefined) throw validationFailed(slice.details);
      this.collector.merge(slice.stats);
      this.refuseOverflow(slice.texts.length);
      this.checked += slice.texts.length;
      return slice.texts;
    }
    const texts = new Array<string>(slice.length);
    const refusals: Refusals = {};
    for (let i = 0; i < slice.length; i++) {
      const text = checkRow(slice[i], this.checked + i, this.collector, this.maxRowBytes, refusals);
      if (text !== undefined) texts[i] = text;
      if (refusals.details !== undefined && refusals.details.length >= MAX_DETAILS) break;
    }
    if (refusals.details !== undefined) throw validationFailed(refusals.details);
    this.refuseOverflow(texts.length);
    this.checked += texts.length;
    return texts;
  }

  /** Checked once a slice: a slice's rows can add only as many keys as its bytes hold past the cap. */
  private refuseOverflow(sliceRows: number): void {
    if (!this.collector.overflowed) return;
    const last = this.checked + sliceRows - 1;
    throw validationFailed([{ path: `rows.${last}`, message: `the rows up to this one hold more than ${MAX_COLUMNS} distinct column keys` }]);
  }

  stats(): CellStats {
    return this.collector.result(this.checked);
  }
}

/** An import's rows once checked, slice by slice, on this thread or the parse worker's, and their statistics. */
export interface CheckedRows {
  slices: Iterable<RowTexts> | AsyncIterable<RowTexts>;
  stats(): CellStats;
  /** Stops the producer when the rows will not be read (the import failed before its first slice). */
  discard?(): Promise<void>;
  /**
   * Present when the producer runs the template's rules itself, on its own thread (the parse worker): given the
   * schema of rules to run (rulesToRun; undefined for none), the rows as validateRows answers them, undefined
   * for none. Called before the first slice is read, or the rows are taken as free-form.
   */
  validateInProducer?(schemaText: string | undefined): ValidatedRows | undefined;
}
