import readXlsxFile from 'read-excel-file/universal';
import { trimTable } from '../table';

/** A sheet's rows as the worker reads them, before it packs them for the page. */
export interface SheetText {
  name: string;
  rows: string[][];
}

/**
 * Every sheet of an XLSX workbook as text. Numbers keep the text stored in the file (no float round trip);
 * text cells (zip codes typed as text) are kept exactly; date cells are never serial numbers but ISO 8601 to
 * the millisecond (excel-timestamp.ts): a date `2026-03-01`, a date and time `2026-03-01T09:30:00` (a
 * column with a time of day anywhere is a date-time column: its midnights stay date-times), a time of day
 * alone `09:30:00`. Excel times have no time zone; the server reads them as UTC.
 */
export async function readXlsx(bytes: ArrayBuffer): Promise<SheetText[]> {
  const sheets = await readXlsxFile(bytes, { parseNumber: (text: string) => text, trim: false });
  return sheets.map(({ sheet, data }) => {
    const timed = timedColumns(data);
    return { name: sheet, rows: trimTable(data.map((row) => row.map((value, column) => cellText(value, timed.has(column))))) };
  });
}

const DAY_MS = 86_400_000;
/** 1899-12-30, Excel's day 0 for times of day alone (serials below 1). */
const TIME_ONLY_BEFORE = Date.UTC(1899, 11, 31);

function timedColumns(data: unknown[][]): Set<number> {
  const timed = new Set<number>();
  for (const row of data) {
    row.forEach((value, column) => {
      if (value instanceof Date && value.getTime() >= TIME_ONLY_BEFORE && ((value.getTime() % DAY_MS) + DAY_MS) % DAY_MS !== 0) timed.add(column);
    });
  }
  return timed;
}

function cellText(value: unknown, timed: boolean): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    // Milliseconds only when there are some: `2026-03-01T09:30:00`, `2026-03-01T09:30:00.250`.
    const iso = value.toISOString().replace(/(?:\.000)?Z$/, '');
    if (value.getTime() < TIME_ONLY_BEFORE) return iso.slice(11);
    return timed ? iso : iso.slice(0, 10);
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}
