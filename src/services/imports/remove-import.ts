import { isoTime } from '../../core/clock';
import type { ServiceContext } from '../context';
import { keepLease, leaseEnd } from '../leases';
import { removeUploadFile } from '../uploads/upload-files';

/**
 * Rows deleted per transaction: a few milliseconds of work, so an import of any size is removed without
 * holding the server (freeing a row costs about what storing it did; rows are at most IMPORTD_MAX_ROW_BYTES).
 */
export const ROWS_PER_DELETE = 1_000;

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Who holds an import while this node removes it. Never the node's own id, under which its writers hold the
 * imports they write: a writer on this node whose import is being removed (an erasure of its end-user, a
 * clean-up after its lease ran out) could otherwise still renew and complete it, making visible again an
 * import whose rows are going.
 */
export const removerOf = (ctx: ServiceContext): string => `${ctx.store.nodeId}/removal`;

/**
 * Removes an import that is already hidden (hideImports, or still 'writing' with its lease ended): takes it under
 * this node's removal lease (removerOf) (renewed meanwhile, so no other node's clean-up removes it at the same time), deletes its
 * rows in transactions of ROWS_PER_DELETE, yielding to the event loop before each, then the import itself.
 * Its kept file, if it was made of an upload, goes last. Returns how many rows went (0 when another node holds it: that node removes it). `signal` stops it between
 * two transactions; what is left stays hidden, its lease given up, and the next clean-up of any node removes it.
 */
export async function removeHiddenImport(ctx: ServiceContext, importId: string, signal?: AbortSignal): Promise<number> {
  const node = removerOf(ctx);
  if (!(await ctx.store.imports.claim(importId, node, isoTime(ctx.clock), leaseEnd(ctx)))) return 0;
  const lease = keepLease(ctx, async (until) => await ctx.store.imports.renewLease(importId, node, until));
  let rows = 0;
  let done = false;
  try {
    for (;;) {
      await yieldToRequests();
      if (signal?.aborted || lease.lost) return rows;
      const deleted = await ctx.store.compliance.deleteRows(importId, ROWS_PER_DELETE);
      rows += deleted;
      if (deleted < ROWS_PER_DELETE) break;
    }
    await ctx.store.imports.delete(importId);
    done = true;
    // Its original file (an upload it was made of) goes with it.
    const upload = await ctx.store.uploads.ofImport(importId);
    if (upload !== undefined) {
      await removeUploadFile(ctx, upload);
      await ctx.store.uploads.delete(upload);
    }
    return rows;
  } finally {
    lease.stop();
    // Stopped or failed midway: the lease ends now, so the next clean-up (of any node) finishes the removal.
    if (!done && !lease.lost) await ctx.store.imports.renewLease(importId, node, isoTime(ctx.clock)).catch(() => undefined);
  }
}
