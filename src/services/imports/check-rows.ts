import { rowJsonText } from '../../lib/exact-json';
import { validationFailed, type ErrorDetail } from '../errors';
import { utf8Over } from '../limits';
import { CellStatsCollector } from './cell-stats';
import type { CellStats } from './schemas';

const MAX_DETAILS = 20;

/**
 * The hot loop of every import: checks that each row is an object of string, finite number, boolean or
 * null cells, feeds the statistics and returns each row as JSON text (key order and keys such as
 * `__proto__` kept: JSON.parse made them own properties, and neither for-in nor JSON.stringify copies
 * through a prototype; integers beyond 2^53 kept as sent: parseRowJson). `first` is the row index of
 * rows[0]. A row over `maxRowBytes` is refused. Throws validation_failed with paths
 * `rows.<index>[.<key>]` (at most 20).
 */
export function checkRows(rows: readonly unknown[], first: number, stats: CellStatsCollector, maxRowBytes: number): string[] {
  const texts = new Array<string>(rows.length);
  let details: ErrorDetail[] | undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      (details ??= []).push({ path: `rows.${first + i}`, message: 'must be an object of column key -> cell value' });
    } else {
      const cells = row as Record<string, unknown>;
      let keys = 0;
      for (const key in cells) {
        keys++;
        const value = cells[key];
        const kind = typeof value;
        if (kind === 'string' || kind === 'boolean' || value === null || (kind === 'number' && Number.isFinite(value))) {
          stats.add(key, value as string | number | boolean | null);
        } else {
          (details ??= []).push({ path: `rows.${first + i}.${key}`, message: 'must be a string, a finite number, a boolean or null' });
        }
      }
      if (details === undefined) {
        const text = rowJsonText(row, keys);
        if (utf8Over(text, maxRowBytes)) (details ??= []).push({ path: `rows.${first + i}`, message: `must be at most ${maxRowBytes} bytes of JSON` });
        else texts[i] = text;
      }
    }
    if (details !== undefined && details.length >= MAX_DETAILS) break;
  }
  if (details !== undefined) throw validationFailed(details);
  return texts;
}

/** Checks consecutive slices of one import's rows, numbering them and collecting their statistics. */
export class RowChecker {
  private readonly collector = new CellStatsCollector();
  private checked = 0;

  constructor(private readonly maxRowBytes: number) {}

  /** Throws validation_failed (paths use the row's index in the whole import). */
  check(rows: readonly unknown[]): string[] {
    const texts = checkRows(rows, this.checked, this.collector, this.maxRowBytes);
    this.checked += texts.length;
    return texts;
  }

  stats(): CellStats {
    return this.collector.result(this.checked);
  }
}
