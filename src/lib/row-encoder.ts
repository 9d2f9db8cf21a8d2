import { createCsvEncoder } from './csv';
import { createJsonArrayEncoder } from './json-array';
import { createNdjsonEncoder } from './ndjson';

/** A row as stored: its JSON text. */
export interface EncodableRow {
  data: string;
}

/**
 * Turns stored rows into an export file, chunk by chunk, so no more than one chunk is ever in memory.
 * The output is head() + chunk(...) for each chunk in row order + tail().
 */
export interface RowEncoder {
  contentType: string;
  extension: string;
  head(): string;
  chunk(rows: readonly EncodableRow[]): string;
  tail(): string;
  /**
   * NDJSON and JSON: the text written before and after each stored row, so that a store can frame a chunk's rows
   * itself (RowStore.framedChunk), and `chunk` of such a chunk's bytes, what the file gets of them. Either form of
   * chunk may follow the other in one file.
   */
  framed?: { before: string; after: string; chunk(bytes: Uint8Array): Uint8Array };
}

export interface EncoderOptions {
  /** CSV header: column keys in output order (every key of every row must be among them). */
  columns: readonly string[];
  /** CSV: prefix text cells starting with =, +, -, @ with ' (spreadsheet formula injection guard). */
  safe: boolean;
}

export function createRowEncoder(format: 'csv' | 'ndjson' | 'json', options: EncoderOptions): RowEncoder {
  if (format === 'csv') return createCsvEncoder(options);
  if (format === 'ndjson') return createNdjsonEncoder();
  return createJsonArrayEncoder();
}
