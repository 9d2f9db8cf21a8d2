import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import { countRows, type ImportRow, type LearnedMappingsWrite, type RowTexts } from '../../db/store';
import type { ServiceContext } from '../context';
import { conflict } from '../errors';
import { keepLease, leaseEnd } from '../leases';
import { RowChecker, type CheckedRows, type RowSlice } from './check-rows';
import { importCompletedEventFor } from '../webhooks/events';
import { datasetApply, type KeyedApply } from '../datasets/apply';
import { removeHiddenImport } from './remove-import';
import { accountQuota, chargedToQuota, type ImportBytes } from './import-quota';
import type { CellStats, ImportCounts } from './schemas';

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
  | 'reviewStatus'
>;

/**
 * Writes one import: `begin` stores it as 'writing' (invisible to every read), `append` stores slices of
 * checked rows in order, `finish` stores the counts and statistics and flips it to 'complete' in one
 * statement, `abort` deletes it with its rows (in small transactions). The import is this node's under a lease
 * renewed while it is written (IMPORTD_LEASE_SECONDS); a node killed in between leaves a 'writing' import whose
 * lease runs out, and any node's cleanAbandonedImports then removes it. Used by POST /imports (JSON and NDJSON)
 * and the CLI's bulk load.
 */
export interface ImportWriter {
  readonly importId: string;
  readonly rowCount: number;
  /** Stores rows already checked and encoded as JSON text (RowChecker), as strings or UTF-8. */
  append(rows: RowTexts): Promise<void>;
  /**
   * Completes the import and, in the same transaction, writes its `import.completed` webhook event (the
   * outbox; none while it awaits review) and the labels its end-user confirmed (`learned`). Throws conflict when the import was deleted
   * while written (its end-user's data was erased meanwhile).
   */
  finish(stats: CellStats, learned?: LearnedMappingsWrite, counts?: ImportCounts, errorSummary?: string | null, keyed?: KeyedApply): Promise<ImportRow>;
  abort(): Promise<void>;
}

/** `bytes`: the body's, stored with the import as it completes (the account's quota counts them). */
export async function beginImport(ctx: ServiceContext, header: ImportHeader, bytes?: ImportBytes): Promise<ImportWriter> {
  const startedAt = isoTime(ctx.clock);
  const node = ctx.store.nodeId;
  const row: ImportRow = {
    ...header,
    id: newId(),
    status: 'writing',
    writerNode: node,
    leaseUntil: leaseEnd(ctx),
    rowCount: 0,
    cellStats: '{}',
    createdAt: startedAt,
    updatedAt: startedAt,
    reviewedAt: null,
    reviewReason: null,
  };
  await ctx.store.imports.insert(row);
  // Lost: another node took the import over; dropping the rows in flight lets that node remove it at once.
  const lease = keepLease(
    ctx,
    async (until) => await ctx.store.imports.renewLease(row.id, node, until),
    async () => await ctx.store.rows.discard(row.id),
  );
  const removed = () => conflict('the import was deleted while it was being written');
  // Removed meanwhile (its rows then break their foreign key, now or when they are flushed): the same conflict.
  const refusedIfRemoved = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      if (!(await ctx.store.imports.renewLease(row.id, node, leaseEnd(ctx)).catch(() => true))) throw removed();
      throw error;
    }
  };
  let rowCount = 0;
  const clientCounted = Object.hasOwn(JSON.parse(header.meta) as object, 'clientCounts');
  return {
    importId: row.id,
    get rowCount() {
      return rowCount;
    },
    async append(rows) {
      // Taken over by another node's clean-up (this one missed its renewals): it is being removed, stop now.
      if (lease.lost) throw removed();
      await refusedIfRemoved(ctx.store.rows.append(row.id, rowCount, rows));
      rowCount += countRows(rows);
    },
    async finish(stats, learned, counts, errorSummary, keyed) {
      // Visible from the moment it completes, so the newest-first order is the order imports appear in.
      const completedAt = isoTime(ctx.clock);
      // A free-form import's counts are added only when the client sent its own (kept as meta.clientCounts).
      const serverCounts = counts ?? (clientCounted ? { totalRows: rowCount, validRows: rowCount, erroredRows: 0, discardedRows: 0 } : undefined);
      const meta = serverCounts === undefined ? row.meta : metaWithCounts(row.meta, serverCounts);
      const values = { rowCount, cellStats: JSON.stringify(stats), meta, createdAt: completedAt, updatedAt: completedAt, bytes: bytes?.read() ?? 0 };
      const completed: ImportRow = { ...row, ...values, status: 'complete', writerNode: null, leaseUntil: null };
      // An import pending review is not complete for the customer yet: import.completed and its dataset wait
      // for its approval (its mode kept on it for then).
      const pending = completed.reviewStatus !== 'completed';
      const event = pending ? undefined : await importCompletedEventFor(ctx, completed);
      lease.stop();
      const stored = { ...values, ...(errorSummary ? { errorSummary } : {}), ...(keyed && pending ? { mode: keyed.mode } : {}) };
      const apply = keyed && !pending ? datasetApply(completed, keyed, completedAt) : undefined;
      const done = await refusedIfRemoved(chargedToQuota(ctx, ctx.store.imports.complete(row.id, node, stored, event, learned, accountQuota(ctx, row.accountId), apply)));
      if (!done) throw removed();
      if (event) ctx.webhookWake.notify();
      if (done.changes) return { ...completed, mode: keyed!.mode, changes: JSON.stringify(done.changes) };
      return keyed && pending ? { ...completed, mode: keyed.mode } : completed;
    },
    async abort() {
      lease.stop();
      // Its unsent rows go first: should another node have taken the import over, that node removes the rest.
      await ctx.store.rows.discard(row.id);
      // The writer's lease ends now, so this node's removal, which holds imports under another name, takes it at once.
      await ctx.store.imports.renewLease(row.id, node, isoTime(ctx.clock));
      await removeHiddenImport(ctx, row.id);
    },
  };
}

/**
 * Rows as they arrive, in slices: each slice is checked and stored before the next one is produced, so a
 * streamed source (NDJSON over HTTP, a file) is read no faster than it is written and memory stays bounded.
 */
export type RowSlices = Iterable<RowSlice> | AsyncIterable<RowSlice>;

/** Rows checked and encoded slice by slice, and the statistics of them all once every slice has been read. */
/** Checks rows on this thread as the writer asks for them (the parse worker does the same off-thread). */
export function checkInThread(slices: RowSlices, maxRowBytes: number): CheckedRows {
  const checker = new RowChecker(maxRowBytes);
  async function* checked() {
    for await (const rows of slices) yield checker.check(rows);
  }
  return { slices: checked(), stats: () => checker.stats() };
}

/**
 * Appends every slice, yielding to the event loop between slices, then finishes. Any failure (a bad row,
 * a slice that cannot be produced, storage) aborts the import, so nothing of it stays, and is rethrown.
 */
export async function writeRows(
  writer: ImportWriter,
  rows: CheckedRows,
  learned?: LearnedMappingsWrite,
  validated?: { counts(): ImportCounts; errorSummary(): string | null },
  keyed?: KeyedApply,
): Promise<ImportRow> {
  try {
    let first = true;
    for await (const slice of rows.slices) {
      if (!first) await new Promise(setImmediate);
      first = false;
      await writer.append(slice);
    }
    return await writer.finish(rows.stats(), learned, validated?.counts(), validated?.errorSummary(), keyed);
  } catch (error) {
    // The import stays hidden whatever happens here; a removal that fails too is finished at the next start.
    await writer.abort().catch(() => undefined);
    throw error;
  }
}

/** meta's JSON text with the server's `counts` as its last member (the text is spliced: nothing else changes). */
function metaWithCounts(meta: string, counts: ImportCounts): string {
  const inner = meta.slice(1, -1).trim();
  return `{${inner}${inner === '' ? '' : ','}"counts":${JSON.stringify(counts)}}`;
}
