import { createRowEncoder } from '../../lib/row-encoders';
import type { ServiceContext } from '../context';
import { EXPORT_CHUNK_ROWS, type ExportPiece } from '../imports/export-rows';
import { parseInput } from '../validate';
import { resolveDataset } from './resolve-dataset';
import { ExportRecordsQuery } from './schemas';

export interface RecordsExport {
  contentType: string;
  fileName: string;
  /** The file piece by piece, pull-driven: nothing is read before the first piece is asked for. */
  pieces: AsyncGenerator<ExportPiece, void, undefined>;
}

/**
 * A keyed template's dataset in an environment as CSV (header: the template's fields), NDJSON or a JSON array
 * of its records in key order, read in keyset chunks (a fresh query each, so memory stays bounded and nothing
 * stays open while a slow client reads), as an import's export is. Throws validation_failed, not_found.
 */
export async function exportRecords(ctx: ServiceContext, accountId: string, templateId: string, input: ExportRecordsQuery, ownEnvironmentId: string | null = null): Promise<RecordsExport> {
  const { environment, format, safe } = parseInput(ExportRecordsQuery, input);
  const dataset = await resolveDataset(ctx, accountId, templateId, environment, ownEnvironmentId);
  const encoder = createRowEncoder(format, { columns: dataset.rules.cells.map((cell) => cell.key), safe });
  async function* pieces(): AsyncGenerator<ExportPiece, void, undefined> {
    yield { data: encoder.head(), rows: 0 };
    let after: string | undefined;
    for (;;) {
      const records = await ctx.store.datasets.page(dataset.ref, { after, limit: EXPORT_CHUNK_ROWS });
      if (records.length === 0) break;
      yield { data: encoder.chunk(records.map((record, rowIndex) => ({ rowIndex, data: record.record }))), rows: records.length };
      after = records[records.length - 1]!.key;
    }
    yield { data: encoder.tail(), rows: 0 };
  }
  return { contentType: encoder.contentType, fileName: `records-${templateId}-${dataset.environment ?? 'none'}.${encoder.extension}`, pieces: pieces() };
}
