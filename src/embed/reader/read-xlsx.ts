import readXlsxFile from 'read-excel-file/universal';
import { trimTable, type Sheet } from '../table';

/**
 * Every sheet of an XLSX workbook as text. Numbers keep the text stored in the file (no float round trip);
 * date cells become ISO dates (`2026-03-01`, or a full ISO time when the cell has a time of day), never
 * serial numbers; text cells (zip codes typed as text) are kept exactly.
 */
export async function readXlsx(bytes: ArrayBuffer): Promise<Sheet[]> {
  const sheets = await readXlsxFile(bytes, { parseNumber: (text: string) => text, trim: false });
  return sheets.map(({ sheet, data }) => ({ name: sheet, rows: trimTable(data.map((row) => row.map(cellText))) }));
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}
