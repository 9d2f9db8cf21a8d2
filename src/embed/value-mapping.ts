import { compileEnum } from '../rules/enums';
import { isoDateWriter, type TextDateFormat } from './date-format';
import type { EnumOption } from './declared';
import { inSlices } from './grid/slices';
import { Rows, type Cells } from './rows';

/** Distinct values listed per enum field: the most frequent first; any other is checked in the review. */
export const MAX_DISTINCT_VALUES = 100;

/** One distinct value of a column, how many rows hold it and the option it is imported as ('' keeps it). */
export interface ValueChoice {
  value: string;
  rows: number;
  option: string;
  /** Where the suggestion came from: the option's own texts, or this account's earlier imports. */
  source: 'option' | 'learned' | undefined;
}

/**
 * Each column's distinct non-empty values (trimmed) and how many rows hold them, in the order the rows first
 * hold them, over the rows after the header row: in slices that yield to the page (a million rows take seconds).
 */
export async function countValues(table: Rows, columns: number[]): Promise<Map<string, number>[]> {
  const counts = columns.map(() => new Map<string, number>());
  await inSlices(table.length - 1, (index) => {
    columns.forEach((column, at) => {
      const value = table.cell(index + 1, column).trim();
      if (value !== '') counts[at]!.set(value, (counts[at]!.get(value) ?? 0) + 1);
    });
  });
  return counts;
}

/** The counted distinct values, most frequent first, at most MAX_DISTINCT_VALUES. */
export function mostFrequent(counts: Map<string, number>): { value: string; rows: number }[] {
  return [...counts].map(([value, count]) => ({ value, rows: count })).sort((a, b) => b.rows - a.rows || (a.value < b.value ? -1 : 1)).slice(0, MAX_DISTINCT_VALUES);
}

/**
 * Each value's suggested option: the option whose value, label or alternative it is (as the server reads
 * it), else what this account confirmed before (`learned`, fileValue -> option value), else none.
 */
export function suggestValues(values: { value: string; rows: number }[], options: EnumOption[], learned: Record<string, string>): ValueChoice[] {
  const lookup = compileEnum(options);
  const known = new Set(options.map((option) => option.value));
  return values.map(({ value, rows }) => {
    const own = lookup(value);
    if (own !== undefined) return { value, rows, option: own, source: 'option' };
    const remembered = Object.hasOwn(learned, value) ? learned[value] : undefined;
    if (remembered !== undefined && known.has(remembered)) return { value, rows, option: remembered, source: 'learned' };
    return { value, rows, option: '', source: undefined };
  });
}

/**
 * A copy of the table (header row first) with the enum columns' values rewritten to their chosen option
 * (trimmed value -> option value), then the date columns' values read in their format as ISO dates. A cell
 * is rewritten when it is read (a copy of a million rows left the page a million arrays to collect); the
 * copy has edits of its own, so the table keeps the file as read.
 */
export function rewriteValues(table: Rows, enums: { column: number; chosen: Map<string, string> }[], dates: { column: number; format: TextDateFormat; withTime: boolean }[]): Rows {
  const rewrites = new Map<number, ((text: string) => string)[]>();
  const add = (column: number, rewrite: (text: string) => string) => rewrites.set(column, [...(rewrites.get(column) ?? []), rewrite]);
  for (const { column, chosen } of enums) add(column, (text) => chosen.get(text.trim()) ?? text);
  for (const { column, format, withTime } of dates) add(column, isoDateWriter(format, withTime));
  return Rows.over(new RewrittenCells(table, rewrites));
}

/** The cells of a table below its header row, each column's rewrites applied in order. */
class RewrittenCells implements Cells {
  constructor(
    private readonly table: Rows,
    private readonly rewrites: ReadonlyMap<number, readonly ((text: string) => string)[]>,
  ) {}

  get length(): number {
    return this.table.length;
  }

  get width(): number {
    return this.table.width;
  }

  cell(row: number, column: number): string {
    const text = this.table.cell(row, column);
    const rewrites = row === 0 ? undefined : this.rewrites.get(column);
    return rewrites === undefined ? text : rewrites.reduce((rewritten, rewrite) => rewrite(rewritten), text);
  }
}
