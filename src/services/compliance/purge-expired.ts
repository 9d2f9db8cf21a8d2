import { isoTime } from '../../core/clock';
import type { ServiceContext } from '../context';
import { removeHiddenImport } from '../imports/remove-import';
import { keepLease, leaseEnd } from '../leases';
import { schedule, type Schedule } from '../schedule';
import type { PurgeResult } from './schemas';

const IMPORTS_PER_BATCH = 50;
const EVENTS_PER_BATCH = 1000;

/** The lease that lets one node at a time purge (several nodes share one database). */
export const RETENTION_LOCK = 'retention-purge';

/**
 * Retention (IMPORTD_RETENTION_DAYS): deletes every import created more than that many days ago, with its
 * rows, and every webhook event as old. No-op when retention is unset. Works in small transactions (at most 50 imports hidden, or
 * ROWS_PER_DELETE rows deleted, per transaction) and yields to the event loop between them, so a purge of
 * millions of rows never holds the database or the server for long. An expired import is first hidden
 * (never shown to readers again) and then emptied, so no reader ever sees it partly deleted; a process
 * killed mid-purge leaves only hidden imports, which the start-up clean-up of left-over writes removes.
 * `signal` stops it between two transactions (at shutdown).
 * One node at a time purges: it holds the RETENTION_LOCK lease while it works (renewed, and given up at the
 * end); returns undefined, having done nothing, when another node holds it. Losing the lease midway (this node
 * stalled past IMPORTD_LEASE_SECONDS) stops the purge like `signal` does.
 */
export async function purgeExpiredImports(ctx: ServiceContext, signal?: AbortSignal): Promise<PurgeResult | undefined> {
  const result: PurgeResult = { imports: 0, rows: 0 };
  const days = ctx.config.retentionDays;
  if (days === undefined) return result;
  const node = ctx.store.nodeId;
  const acquire = (until: string) => ctx.store.locks.tryAcquire(RETENTION_LOCK, node, isoTime(ctx.clock), until);
  if (!(await acquire(leaseEnd(ctx)))) return undefined;
  const lease = keepLease(ctx, acquire);
  const stopped = () => signal?.aborted === true || lease.lost;
  try {
    const cutoff = new Date(ctx.clock().getTime() - days * 86_400_000).toISOString();
    for (;;) {
      if (stopped()) return result;
      const hidden = await ctx.store.compliance.hideExpired(cutoff, IMPORTS_PER_BATCH);
      if (hidden.length === 0) {
        // Webhook events (and their delivery logs) expire with the imports they could be about.
        while (!stopped() && (await ctx.store.webhooks.pruneEvents(cutoff, EVENTS_PER_BATCH)) === EVENTS_PER_BATCH);
        return result;
      }
      for (const id of hidden) {
        // Stopping midway leaves this import (and the rest of the batch) hidden: any node's clean-up of
        // abandoned imports removes them.
        result.rows += await removeHiddenImport(ctx, id, signal);
        if (stopped()) return result;
        result.imports++;
      }
    }
  } finally {
    lease.stop();
    if (!lease.lost) await ctx.store.locks.release(RETENTION_LOCK, node);
  }
}

/**
 * Runs `purgeExpiredImports` now and then every `intervalMs` (hourly in `serve`), never two at once (see
 * `schedule`); a run that found another node purging reports nothing.
 */
export function scheduleRetention(
  ctx: ServiceContext,
  report: { purged(result: PurgeResult): void; failed(error: unknown): void },
  intervalMs = 3_600_000,
): Schedule {
  if (ctx.config.retentionDays === undefined) return { stop: async () => undefined };
  const done = (result: PurgeResult | undefined) => {
    if (result) report.purged(result);
  };
  return schedule((signal) => purgeExpiredImports(ctx, signal), { done, failed: report.failed }, intervalMs);
}
