import { compileEnum } from '../rules/enums';
import type { EnumOption } from './declared';

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

/** The column's distinct non-empty values (trimmed), most frequent first, at most MAX_DISTINCT_VALUES. */
export function distinctValues(rows: string[][], column: number): { value: string; rows: number }[] {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const value = (row[column] ?? '').trim();
    if (value !== '') counts.set(value, (counts.get(value) ?? 0) + 1);
  }
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

/** The column's cells rewritten to their chosen option (trimmed value -> option value). */
export function applyValues(rows: string[][], column: number, chosen: Map<string, string>): void {
  for (const row of rows) {
    const option = chosen.get((row[column] ?? '').trim());
    if (option !== undefined) row[column] = option;
  }
}
