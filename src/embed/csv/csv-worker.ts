// Runs in a Web Worker (started from a Blob URL by parse-csv.ts): decodes and parses a CSV file off the page's
// thread, so a large file does not freeze the importer.
import Papa from 'papaparse';
import { decodeText, type Charset } from '../decode';
import { trimTable } from '../table';

export interface CsvRequest {
  bytes: ArrayBuffer;
  charset?: Charset;
}

export type CsvResponse =
  | { ok: true; rows: string[][]; delimiter: string; charset: Charset; uncertain: boolean }
  | { ok: false; message: string };

const scope = self as unknown as { onmessage: (event: MessageEvent<CsvRequest>) => void; postMessage(message: CsvResponse): void };

scope.onmessage = (event) => {
  try {
    const decoded = decodeText(new Uint8Array(event.data.bytes), event.data.charset);
    // Every cell stays a string (no dynamicTyping): zip codes, long numbers and phone numbers keep their text.
    const parsed = Papa.parse<string[]>(decoded.text, { delimitersToGuess: [',', ';', '\t', '|'], skipEmptyLines: false });
    scope.postMessage({ ok: true, rows: trimTable(parsed.data), delimiter: parsed.meta.delimiter, charset: decoded.charset, uncertain: decoded.uncertain });
  } catch (error) {
    scope.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
};
