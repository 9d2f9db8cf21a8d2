import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Limits } from '../../config/config';
import { detectCsvDelimiter } from '../../lib/csv-delimiter';
import { setOwn } from '../../lib/own-member';
import { inSlices } from '../../lib/slices';
import { validationFailed } from '../errors';
import { ndjsonLineBatches, ndjsonRowSlices, SLICE_ROWS, type RowSlice } from '../imports';
import { csvRowSlices } from './csv-rows';
import type { UploadFormat, UploadMetadata } from './schemas';
import { decodedText, detectCharset, type Charset } from './text-decoding';
import { READ_PIECE_BYTES } from './upload-files';
import { xlsxRows } from './xlsx-rows';

/** How much of a text file is read to find its charset and its header line's delimiter. */
const SAMPLE_BYTES = 64 * 1024;

/** A file's rows as an import takes them, and what was learnt reading it. */
export interface FileRows {
  rows: AsyncGenerator<RowSlice>;
  /** The file's bytes read so far. */
  bytesRead(): number;
  /** XLSX: the sheet read. */
  sheet?: string;
}

/**
 * The rows of a file (an upload, or `importd import FILE`): CSV/TSV decoded from its charset (detected:
 * byte order marks, UTF-16, UTF-8 else Windows-1252) with its delimiter (detected from the header line), XLSX
 * read as a stream, NDJSON one row object a line; with a confirmed mapping, only the mapped columns under their
 * schema keys. Read only as the import asks for rows, in bounded memory. Throws validation_failed (also as
 * the rows are read), payload_too_large (a line over the row limit). `bounded` wraps the text formats' bytes
 * as they are read (the CLI's IMPORTD_MAX_IMPORT_BYTES for a file that grows while it is loaded).
 */
export async function fileRows(
  file: string,
  format: UploadFormat,
  metadata: UploadMetadata,
  limits: Limits,
  bounded: (chunks: AsyncIterable<Uint8Array>) => AsyncIterable<Uint8Array> = (chunks) => chunks,
): Promise<FileRows> {
  const input = createReadStream(file, { highWaterMark: READ_PIECE_BYTES });
  let bytesRead = 0;
  const chunks = bounded(
    (async function* () {
      for await (const chunk of input as AsyncIterable<Buffer>) {
        bytesRead += chunk.byteLength;
        yield chunk;
      }
    })(),
  );
  const read = () => bytesRead;
  if (format === 'ndjson') return { rows: ndjsonRowSlices(ndjsonLineBatches(chunks, limits), limits.rowBytes), bytesRead: read };
  if (format === 'xlsx') {
    input.destroy();
    const sheet = await xlsxRows(file, metadata, limits, (bytes) => (bytesRead = bytes));
    return { rows: mapped(inSlices(sheet.rows, SLICE_ROWS), metadata.mapping), bytesRead: read, sheet: sheet.name };
  }
  const sample = await readSample(file);
  const charset = metadata.charset === undefined || metadata.charset === 'auto' ? detectCharset(sample) : metadata.charset;
  const delimiter = format === 'tsv' ? '\t' : delimiterOf(metadata.delimiter, () => headerLine(sample, charset, metadata.headerRow ?? 1));
  const records = csvRowSlices(decodedText(chunks, charset), { delimiter, headerRow: metadata.headerRow, maxRowBytes: limits.rowBytes }, SLICE_ROWS);
  return { rows: mapped(records, metadata.mapping), bytesRead: read };
}

async function readSample(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The header line of a sample (line `headerRow`, 1-based), without a byte order mark. */
function headerLine(sample: Uint8Array, charset: Charset, headerRow: number): string {
  const text = new TextDecoder(charset).decode(sample);
  return text.split(/\r?\n/, headerRow)[headerRow - 1] ?? '';
}

/** Metadata `delimiter`: one character, `tab`, or `auto`/none (detected). Throws validation_failed. */
export function delimiterOf(given: string | undefined, header: () => string): string {
  if (given === undefined || given === 'auto') return detectCsvDelimiter(header());
  const delimiter = given.toLowerCase() === 'tab' || given === '\\t' ? '\t' : given;
  if ([...delimiter].length !== 1 || /["\r\n]/.test(delimiter)) {
    throw validationFailed([{ path: 'metadata.delimiter', message: 'give one character, such as ";" or "|", "tab", or "auto"' }]);
  }
  return delimiter;
}

/** With a confirmed mapping (`{ schemaKey: fileColumn }`), slices of rows of the mapped columns under their schema keys. */
async function* mapped(
  slices: AsyncIterable<Record<string, string | number | boolean | null>[]>,
  mapping: Record<string, string> | undefined,
): AsyncGenerator<Record<string, unknown>[]> {
  if (mapping === undefined) {
    yield* slices;
    return;
  }
  const pairs = Object.entries(mapping);
  let checked = false;
  for await (const rows of slices) {
    if (!checked) {
      const missing = pairs.find(([, column]) => !Object.hasOwn(rows[0]!, column));
      if (missing) throw validationFailed([{ path: `metadata.mapping.${missing[0]}`, message: `column ${JSON.stringify(missing[1])} is not in the file's header` }]);
      checked = true;
    }
    yield rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (const [key, column] of pairs) {
        if (key === '__proto__') setOwn(out, key, row[column]);
        else out[key] = row[column];
      }
      return out;
    });
  }
}
