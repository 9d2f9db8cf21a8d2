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
}

export interface EncoderOptions {
  /** CSV header: column keys in output order (every key of every row must be among them). */
  columns: readonly string[];
  /** CSV: prefix text cells starting with =, +, -, @ with ' (spreadsheet formula injection guard). */
  safe: boolean;
}
