import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import { insertRowTexts } from '../../db/queries/import-rows';
import { completeImport, deleteImport, insertImport, type ImportRow } from '../../db/queries/imports';
import type { ServiceContext } from '../context';
import { CellStatsCollector } from './cell-stats';
import { checkRows } from './check-rows';

/** Rows written per transaction; between slices the event loop serves other requests. */
export const SLICE_ROWS = 2000;

/** Everything stored about an import except its rows and statistics. */
export type ImportHeader = Pick<
  ImportRow,
  | 'accountId'
  | 'environmentId'
  | 'templateId'
  | 'meta'
  | 'originalSchema'
  | 'file'
  | 'fileId'
  | 'endUserId'
  | 'endUserEmail'
  | 'endUserIp'
  | 'importedFrom'
  | 'sessionJti'
>;

/**
 * Writes one import: `begin` stores it as 'writing' (invisible to every read), `append` checks and stores
 * slices of rows in order, `finish` stores the counts and statistics and flips it to 'complete' in one
 * statement, `abort` deletes it with its rows. A process killed in between leaves a 'writing' import that
 * cleanAbandonedImports removes. Used by POST /imports; built for streamed and CLI ingest as well.
 */
export interface ImportWriter {
  readonly importId: string;
  readonly rowCount: number;
  /** Checks and stores rows in one transaction. Throws validation_failed (the caller then aborts). */
  append(rows: readonly unknown[]): void;
  finish(): ImportRow;
  abort(): void;
}

export function beginImport(ctx: ServiceContext, header: ImportHeader): ImportWriter {
  const startedAt = isoTime(ctx.clock);
  const row: ImportRow = {
    ...header,
    id: newId(),
    status: 'writing',
    writerPid: process.pid,
    rowCount: 0,
    cellStats: '{}',
    createdAt: startedAt,
    updatedAt: startedAt,
  };
  insertImport(ctx.db, row);
  const stats = new CellStatsCollector();
  const store = ctx.sqlite.transaction((first: number, texts: string[]) => insertRowTexts(ctx.sqlite, row.id, first, texts));
  let rowCount = 0;
  return {
    importId: row.id,
    get rowCount() {
      return rowCount;
    },
    append(rows) {
      const texts = checkRows(rows, rowCount, stats);
      store(rowCount, texts);
      rowCount += texts.length;
    },
    finish() {
      // Visible from the moment it completes, so the newest-first order is the order imports appear in.
      const completedAt = isoTime(ctx.clock);
      const values = { rowCount, cellStats: JSON.stringify(stats.result(rowCount)), createdAt: completedAt, updatedAt: completedAt };
      completeImport(ctx.db, row.id, values);
      return { ...row, ...values, status: 'complete', writerPid: null };
    },
    abort() {
      deleteImport(ctx.db, row.id);
    },
  };
}

/**
 * Rows as they arrive, in slices: each slice is checked and stored before the next one is produced, so a
 * streamed source (NDJSON over HTTP, a file) is read no faster than it is written and memory stays bounded.
 */
export type RowSlices = Iterable<readonly unknown[]> | AsyncIterable<readonly unknown[]>;

/** An array of rows as slices of SLICE_ROWS. */
export function* sliceRows(rows: readonly unknown[]): Generator<readonly unknown[]> {
  for (let first = 0; first < rows.length; first += SLICE_ROWS) yield rows.slice(first, first + SLICE_ROWS);
}

/**
 * Appends every slice, yielding to the event loop between slices, then finishes. Any failure (a bad row,
 * a slice that cannot be produced, storage) aborts the import, so nothing of it stays, and is rethrown.
 */
export async function writeRows(writer: ImportWriter, slices: RowSlices): Promise<ImportRow> {
  try {
    let first = true;
    for await (const slice of slices) {
      if (!first) await new Promise(setImmediate);
      first = false;
      writer.append(slice);
    }
    return writer.finish();
  } catch (error) {
    writer.abort();
    throw error;
  }
}
