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

export type ReadResponse = ({ ok: true } & ReadFile) | { ok: false; message: string };

const scope = self as unknown as { onmessage: (event: MessageEvent<ReadRequest>) => void; postMessage(message: ReadResponse): void };

scope.onmessage = async (event) => {
  try {
    const { kind, bytes, charset, delimiter } = event.data;
    scope.postMessage({ ok: true, ...(kind === 'xlsx' ? { sheets: await readXlsx(bytes) } : readCsv(bytes, charset, delimiter)) });
  } catch (error) {
    scope.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
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
