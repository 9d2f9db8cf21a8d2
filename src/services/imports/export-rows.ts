import { createRowEncoder } from '../../lib/row-encoders';
import type { ServiceContext } from '../context';
import { conflict } from '../errors';
import { parseInput } from '../validate';
import { findAccountImport } from './get-import';
import { ExportQuery, type CellStats } from './schemas';
import { schemaFieldKeys } from './schema-fields';
import { attachErrors, invalidRowsStored } from './list-rows';

/** Rows read per query while exporting, at most. */
export const EXPORT_CHUNK_ROWS = 1000;

/**
 * Characters of output a chunk aims at: chunks of large rows hold fewer rows, and CSV chunks of many
 * columns fewer records (each record has a field per column), so memory is bounded by bytes, not rows.
 */
export const EXPORT_CHUNK_BYTES = 4 * 1024 * 1024;

export interface RowExport {
  importId: string;
  rowCount: number;
  contentType: string;
  fileName: string;
  /**
   * The file, piece by piece, as text or as UTF-8 bytes; `rows` is how many rows a piece holds (for progress).
   * Pull-driven and lazy. It holds one of the account's export slots until it ends: read it to its end, or
   * `return()` it (a HEAD).
   */
  pieces: AsyncGenerator<ExportPiece, void, undefined>;
}

export interface ExportPiece {
  data: string | Uint8Array;
  rows: number;
}

/**
 * Exports all rows of an import in row order as CSV, NDJSON or a JSON array, read in keyset chunks of at
 * most EXPORT_CHUNK_ROWS rows and about EXPORT_CHUNK_BYTES (a fresh query per chunk, so no statement stays
 * open between pieces and other queries run in between) and encoded chunk by chunk: memory stays bounded
 * whatever the import's size.
 * The CSV header is the template's field keys in schema order (from the import's originalSchema), then every
 * other key in first-seen order. Nothing is read or encoded before the first piece is pulled (a HEAD request
 * pulls none). Throws validation_failed, not_found, rate_limited (the account already streams
 * IMPORTD_MAX_EXPORTS exports from this process); the pieces throw conflict, before the file's tail, when the
 * import is deleted while it is exported.
 */
export async function exportRows(ctx: ServiceContext, accountId: string, importId: string, input: ExportQuery): Promise<RowExport> {
  const { format, safe, errors } = parseInput(ExportQuery, input);
  const imported = await findAccountImport(ctx, accountId, importId);
  const plain = createRowEncoder(format, { columns: [], safe });
  const release = ctx.exportSlots.take(accountId);
  async function* pieces() {
    try {
      yield* encoded();
    } finally {
      release();
    }
  }
  async function* encoded() {
    const keys = format === 'csv' || errors ? csvColumns(imported.originalSchema, imported.cellStats) : [];
    const member = errors ? errorsMember(keys) : undefined;
    const columns = format === 'csv' ? [...keys, ...(member === undefined ? [] : [member])] : [];
    const invalid = errors ? invalidRowsStored(imported.meta) : 0;
    const encoder = format === 'csv' ? createRowEncoder(format, { columns, safe }) : plain;
    const rowsPerChunk = Math.max(1, Math.min(EXPORT_CHUNK_ROWS, Math.floor(EXPORT_CHUNK_BYTES / Math.max(1, columns.length))));
    /** The chunk after row `from` as the file writes it, with its row count and last rowIndex; undefined past the last row. */
    const chunkAfter = async (from: number) => {
      const stored = await ctx.store.rows.chunk(imported.id, 'asc', from, rowsPerChunk, EXPORT_CHUNK_BYTES);
      if (invalid > 0 && stored.length > 0) await attachErrors(ctx, imported.id, stored);
      const rows = member === undefined ? stored : stored.map((row) => ({ rowIndex: row.rowIndex, data: withErrors(row.data, row.errors ?? null, format === 'csv', member) }));
      return rows.length === 0 ? undefined : { data: encoder.chunk(rows), count: rows.length, last: rows[rows.length - 1]!.rowIndex };
    };
    yield { data: encoder.head(), rows: 0 };
    let sent = 0;
    for (let chunk = await chunkAfter(-1); chunk; chunk = await chunkAfter(chunk.last)) {
      yield { data: chunk.data, rows: chunk.count };
      sent += chunk.count;
    }
    // Deleted meanwhile (by its owner, an erasure or retention): a well-formed file missing rows would pass for
    // the whole import, so it ends without its tail and the answer fails instead.
    if (sent !== imported.rowCount) throw conflict(`the import was deleted while it was exported (${sent} of ${imported.rowCount} rows sent)`);
    yield { data: encoder.tail(), rows: 0 };
  }
  return {
    importId: imported.id,
    rowCount: imported.rowCount,
    contentType: plain.contentType,
    fileName: `import-${imported.id}.${plain.extension}`,
    pieces: releasedOnReturn(pieces(), release),
  };
}

/** A generator returned before its first piece never runs its `finally`: its return gives the slot back too. */
function releasedOnReturn<T>(pieces: AsyncGenerator<T, void, undefined>, release: () => void): AsyncGenerator<T, void, undefined> {
  const returned = pieces.return.bind(pieces);
  pieces.return = async (value) => {
    release();
    return await returned(value);
  };
  return pieces;
}

/** The CSV header: the schema's field keys, then the other keys the rows hold, in first-seen order. */
function csvColumns(originalSchema: string, cellStats: string): string[] {
  const seen = (JSON.parse(cellStats) as CellStats).fieldBreakdown.map((field) => field.key);
  return [...new Set([...schemaFieldKeys(JSON.parse(originalSchema)), ...seen])];
}

/**
 * The column (CSV) or member (NDJSON, JSON) an export with `errors=true` adds to every row: `_errors`, with
 * one more leading `_` while the import has a column of that name (its rows' own `_errors` cells are exported
 * as they are, never overwritten nor given a second member of the same name).
 */
export function errorsMember(columns: readonly string[]): string {
  const taken = new Set(columns);
  let name = '_errors';
  while (taken.has(name)) name = `_${name}`;
  return name;
}

/**
 * A row's JSON text with its errors as its last member `member`: the array (`[]` for a valid row), or for
 * CSV a compact text `key: message; key: message` (empty for a valid row). Stored rows are compact JSON objects: spliced.
 */
function withErrors(data: string, errors: string | null, csv: boolean, member: string): string {
  let value: string;
  if (!csv) value = errors ?? '[]';
  else if (errors === null) value = '""';
  else value = JSON.stringify((JSON.parse(errors) as { key: string; message: string }[]).map((error) => `${error.key}: ${error.message}`).join('; '));
  return `${data.slice(0, -1)}${data === '{}' ? '' : ','}${JSON.stringify(member)}:${value}}`;
}
