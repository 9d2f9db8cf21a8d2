import type { Rows } from './rows';

/** A sheet as text: the header row, then the data rows, every cell a string exactly as written. */
export interface Sheet {
  name: string;
  rows: Rows;
}

/** Drops empty trailing rows and the columns that are empty in every row from the right. */
export function trimTable(rows: string[][]): string[][] {
  let end = rows.length;
  while (end > 0 && rows[end - 1]!.every((cell) => cell.trim() === '')) end -= 1;
  const kept = rows.slice(0, end);
  let width = 0;
  for (const row of kept) {
    for (let column = row.length - 1; column >= width; column -= 1) {
      if (row[column]!.trim() !== '') {
        width = column + 1;
        break;
      }
    }
  }
  return kept.map((row) => (row.length === width ? row : Array.from({ length: width }, (_, column) => row[column] ?? '')));
}

/** The header labels of a sheet, made unique and non-empty (they become mapping keys). */
export function headerLabels(header: string[]): string[] {
  const seen = new Map<string, number>();
  return header.map((raw, column) => {
    const base = raw.trim() === '' ? `Column ${column + 1}` : raw.trim();
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base} (${count})`;
  });
}
