// Runs in a Web Worker (started from a Blob URL by read-file.ts): decodes and parses CSV, and unzips and
// parses XLSX, off the page's thread, so a large file does not freeze the importer.
import Papa from 'papaparse';
import { decodeText, type Charset } from '../decode';
import { trimTable, type Sheet } from '../table';
import { readXlsx } from './read-xlsx';

export interface ReadRequest {
  kind: 'csv' | 'xlsx';
  bytes: ArrayBuffer;
  charset?: Charset;
  delimiter?: string;
}

/** A read file: its sheets (one for CSV) and, for CSV, how its text was read. */
export interface ReadFile {
  sheets: Sheet[];
  csv?: { delimiter: string; charset: Charset; uncertain: boolean };
}

/**
 * The worker's answer, in messages: each sheet's rows a slice at a time, then the sheets' names (and how a
 * CSV was read). The page copies each message out of the worker in a task of its own: one message of a
 * million rows held the page's thread for seconds (structured clone of every cell at once).
 */
export type ReadResponse =
  | { type: 'rows'; sheet: number; rows: string[][] }
  | { type: 'done'; names: string[]; csv?: ReadFile['csv'] }
  | { type: 'error'; message: string };

/** Cells per message: copying one into the page takes a few milliseconds. */
const CELLS_PER_MESSAGE = 32_768;

const scope = self as unknown as { onmessage: (event: MessageEvent<ReadRequest>) => void; postMessage(message: ReadResponse): void };

scope.onmessage = async (event) => {
  try {
    const { kind, bytes, charset, delimiter } = event.data;
    const read = kind === 'xlsx' ? { sheets: await readXlsx(bytes) } : readCsv(bytes, charset, delimiter);
    read.sheets.forEach((sheet, index) => {
      const step = Math.max(1, Math.floor(CELLS_PER_MESSAGE / Math.max(1, sheet.rows[0]?.length ?? 1)));
      for (let first = 0; first < sheet.rows.length; first += step) scope.postMessage({ type: 'rows', sheet: index, rows: sheet.rows.slice(first, first + step) });
    });
    scope.postMessage({ type: 'done', names: read.sheets.map((sheet) => sheet.name), ...(read.csv && { csv: read.csv }) });
  } catch (error) {
    scope.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
};

function readCsv(bytes: ArrayBuffer, charset: Charset | undefined, delimiter: string | undefined): ReadFile {
  const decoded = decodeText(new Uint8Array(bytes), charset);
  // Every cell stays a string (no dynamicTyping): zip codes, long numbers and phone numbers keep their text.
  const parsed = Papa.parse<string[]>(decoded.text, delimiter ? { delimiter, skipEmptyLines: false } : { delimitersToGuess: [',', ';', '\t', '|'], skipEmptyLines: false });
  return {
    sheets: [{ name: '', rows: trimTable(parsed.data) }],
    csv: { delimiter: parsed.meta.delimiter, charset: decoded.charset, uncertain: decoded.uncertain },
  };
}
