// Runs in a Web Worker (started from a Blob URL by read-file.ts): reads the file's bytes, decodes and parses CSV,
// and unzips and parses XLSX, off the page's thread, so a large file does not freeze the importer.
import Papa from 'papaparse';
import { decodeText, type Charset } from '../decode';
import { packSlice, type PackedSlice } from '../rows';
import { trimTable, type Sheet } from '../table';
import { readXlsx, type SheetText } from './read-xlsx';

export interface ReadRequest {
  kind: 'csv' | 'xlsx';
  /**
   * The file itself (a File is posted by reference, its bytes are not copied): the worker reads them, as reading
   * them in the page and transferring them held the page's thread in long tasks.
   */
  file: Blob;
  charset?: Charset;
  delimiter?: string;
  /** A CSV larger than this is read only that far (a file sent whole to the server): its last row may be cut. */
  headBytes: number;
}

/** A read file: its sheets (one for CSV) and, for CSV, how its text was read. */
export interface ReadFile {
  sheets: Sheet[];
  csv?: { delimiter: string; charset: Charset; uncertain: boolean };
}

/** A read file in the worker, before its rows are packed. */
interface ReadText {
  sheets: SheetText[];
  csv?: ReadFile['csv'];
}

/**
 * The worker's answer, in messages: each sheet's rows a slice at a time, then the sheets' names (and how a
 * CSV was read). The page copies each message out of the worker in a task of its own: one message of a
 * million rows held the page's thread for seconds (structured clone of every cell at once). A slice is
 * packed (one string and its offsets, transferred): rows posted as arrays of strings left the page a
 * million arrays and millions of strings, which its garbage collector copied over and over.
 */
export type ReadResponse =
  | { type: 'rows'; sheet: number; width: number; slice: PackedSlice }
  | { type: 'done'; names: string[]; csv?: ReadFile['csv'] }
  | { type: 'error'; message: string };

/** Cells per message: copying one into the page takes a few milliseconds. */
const CELLS_PER_MESSAGE = 32_768;

const scope = self as unknown as { onmessage: (event: MessageEvent<ReadRequest>) => void; postMessage(message: ReadResponse, transfer?: Transferable[]): void };

scope.onmessage = async (event) => {
  try {
    const { kind, file, charset, delimiter, headBytes } = event.data;
    const partial = kind === 'csv' && file.size > headBytes;
    const bytes = await (partial ? file.slice(0, headBytes) : file).arrayBuffer();
    const read: ReadText = kind === 'xlsx' ? { sheets: await readXlsx(bytes) } : readCsv(partial ? wholeLines(bytes) : new Uint8Array(bytes), charset, delimiter, partial);
    read.sheets.forEach((sheet, index) => {
      // trimTable gives every row the same width.
      const width = sheet.rows[0]?.length ?? 0;
      const step = Math.max(1, Math.floor(CELLS_PER_MESSAGE / Math.max(1, width)));
      for (let first = 0; first < sheet.rows.length; first += step) {
        const slice = packSlice(sheet.rows.slice(first, first + step), width);
        scope.postMessage({ type: 'rows', sheet: index, width, slice }, [slice.offsets.buffer]);
      }
    });
    scope.postMessage({ type: 'done', names: read.sheets.map((sheet) => sheet.name), ...(read.csv && { csv: read.csv }) });
  } catch (error) {
    scope.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
};

function readCsv(bytes: Uint8Array, charset: Charset | undefined, delimiter: string | undefined, partial = false): ReadText {
  const decoded = decodeText(bytes, charset);
  // Every cell stays a string (no dynamicTyping): zip codes, long numbers and phone numbers keep their text.
  const parsed = Papa.parse<string[]>(decoded.text, delimiter ? { delimiter, skipEmptyLines: false } : { delimitersToGuess: [',', ';', '\t', '|'], skipEmptyLines: false });
  const rows = trimTable(parsed.data);
  // The last row of a cut file may be cut too (a quoted cell running on past the cut).
  if (partial) rows.pop();
  return {
    sheets: [{ name: '', rows }],
    csv: { delimiter: parsed.meta.delimiter, charset: decoded.charset, uncertain: decoded.uncertain },
  };
}

/**
 * The bytes up to the last line feed: a cut UTF-8 character would make the file look like Windows-1252. (A line
 * feed byte is never inside a UTF-8 sequence; a UTF-16 file's last half character falls in the row dropped.)
 */
function wholeLines(bytes: ArrayBuffer): Uint8Array {
  const view = new Uint8Array(bytes);
  return view.subarray(0, view.lastIndexOf(0x0a) + 1 || view.length);
}
