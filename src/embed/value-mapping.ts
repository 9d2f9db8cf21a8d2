import { compileEnum } from '../rules/enums';
import { isoDateWriter, type TextDateFormat } from './date-format';
import type { EnumOption } from './declared';
import { inSlices } from './grid/slices';

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
export async function countValues(table: string[][], columns: number[]): Promise<Map<string, number>[]> {
  const counts = columns.map(() => new Map<string, number>());
  await inSlices(table.length - 1, (index) => {
    const row = table[index + 1]!;
    columns.forEach((column, at) => {
      const value = (row[column] ?? '').trim();
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
 * (trimmed value -> option value), then the date columns' values read in their format as ISO dates: row by
 * row, in slices that yield to the page.
 */
export async function rewriteValues(
  table: string[][],
  enums: { column: number; chosen: Map<string, string> }[],
  dates: { column: number; format: TextDateFormat; withTime: boolean }[],
): Promise<string[][]> {
  const writers = dates.map(({ column, format, withTime }) => ({ column, write: isoDateWriter(format, withTime) }));
  const copy = table.slice(0, 1).map((row) => row.slice());
  await inSlices(table.length - 1, (index) => {
    const row = table[index + 1]!.slice();
    for (const { column, chosen } of enums) {
      const option = chosen.get((row[column] ?? '').trim());
      if (option !== undefined) row[column] = option;
    }
    for (const { column, write } of writers) write(row, column);
    copy.push(row);
  });
  return copy;
}
