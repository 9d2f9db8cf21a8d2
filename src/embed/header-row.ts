import type { Rows } from './rows';

/** Rows looked at for the header: title lines above it are a few at most. */
const SCANNED_ROWS = 20;
const NUMBER_OR_DATE = /^[\s$€£¥%+\-.,:/\d()]+$/;

/**
 * The index of the header row: the first of the first rows whose cells look like labels. A title line
 * ("Customer export", "Generated on ...") fills fewer cells than the table is wide; a data row holds
 * numbers, dates or repeats; a label row fills most columns with distinct texts that are not numbers.
 * Answers 0 when no row looks like labels (the first row is then taken, as before).
 */
export function detectHeaderRow(rows: Rows): number {
  const scanned = rows.head(SCANNED_ROWS);
  const filled = scanned.map((row) => row.filter((cell) => cell.trim() !== '').length);
  const widest = Math.max(0, ...filled);
  if (widest < 2) return 0;
  const found = scanned.findIndex((row, index) => filled[index]! >= Math.max(2, Math.ceil(widest * 0.6)) && looksLikeLabels(row));
  return found < 0 ? 0 : found;
}

function looksLikeLabels(row: string[]): boolean {
  const texts = row.map((cell) => cell.trim()).filter((cell) => cell !== '');
  const distinct = new Set(texts.map((text) => text.toLowerCase()));
  return distinct.size === texts.length && texts.every((text) => !NUMBER_OR_DATE.test(text) && !text.includes('@') && text.length <= 100);
}
