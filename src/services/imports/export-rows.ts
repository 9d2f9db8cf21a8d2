import { createRowEncoder } from '../../lib/row-encoder';
import type { ServiceContext } from '../context';
import { parseInput } from '../validate';
import { findAccountImport } from './get-import';
import { ExportQuery, type CellStats } from './schemas';
import { schemaFieldKeys } from './schema-fields';

/** Rows read per query while exporting: the most rows ever held in memory at once. */
export const EXPORT_CHUNK_ROWS = 1000;

export interface RowExport {
  importId: string;
  rowCount: number;
  contentType: string;
  fileName: string;
  /** The file, piece by piece; `rows` is how many rows a piece holds (for progress). Pull-driven. */
  pieces: AsyncGenerator<{ text: string; rows: number }, void, undefined>;
}

/**
 * Exports all rows of an import in row order as CSV, NDJSON or a JSON array, read in keyset chunks of
 * EXPORT_CHUNK_ROWS (a fresh query per chunk, so no statement stays open between pieces and other queries
 * run in between) and encoded chunk by chunk: memory stays bounded whatever the import's size. The CSV
 * header is the template's field keys in schema order (from the import's originalSchema), then every
 * other key in first-seen order. Throws validation_failed, not_found.
 */
export async function exportRows(ctx: ServiceContext, accountId: string, importId: string, input: ExportQuery): Promise<RowExport> {
  const { format, safe } = parseInput(ExportQuery, input);
  const imported = await findAccountImport(ctx, accountId, importId);
  const seen = (JSON.parse(imported.cellStats) as CellStats).fieldBreakdown.map((field) => field.key);
  const columns = [...new Set([...schemaFieldKeys(JSON.parse(imported.originalSchema)), ...seen])];
  const encoder = createRowEncoder(format, { columns, safe });
  async function* pieces() {
    yield { text: encoder.head(), rows: 0 };
    let from = -1;
    for (;;) {
      const rows = await ctx.store.rows.chunk(imported.id, 'asc', from, EXPORT_CHUNK_ROWS);
      if (rows.length === 0) break;
      yield { text: encoder.chunk(rows), rows: rows.length };
      from = rows[rows.length - 1]!.rowIndex;
      if (rows.length < EXPORT_CHUNK_ROWS) break;
    }
    yield { text: encoder.tail(), rows: 0 };
  }
  return {
    importId: imported.id,
    rowCount: imported.rowCount,
    contentType: encoder.contentType,
    fileName: `import-${imported.id}.${encoder.extension}`,
    pieces: pieces(),
  };
}
