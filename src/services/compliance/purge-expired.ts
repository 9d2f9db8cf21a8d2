import type { ServiceContext } from '../context';
import { removeHiddenImport } from '../imports/remove-import';
import type { PurgeResult } from './schemas';

const IMPORTS_PER_BATCH = 50;
const EVENTS_PER_BATCH = 1000;

/**
 * Retention (IMPORTD_RETENTION_DAYS): deletes every import created more than that many days ago, with its
 * rows, and every webhook event as old. No-op when retention is unset. Works in small transactions (at most 50 imports hidden, or
 * ROWS_PER_DELETE rows deleted, per transaction) and yields to the event loop between them, so a purge of
 * millions of rows never holds the database or the server for long. An expired import is first hidden
 * (never shown to readers again) and then emptied, so no reader ever sees it partly deleted; a process
 * killed mid-purge leaves only hidden imports, which the start-up clean-up of left-over writes removes.
 * `signal` stops it between two transactions (at shutdown).
 */
export async function purgeExpiredImports(ctx: ServiceContext, signal?: AbortSignal): Promise<PurgeResult> {
  const result: PurgeResult = { imports: 0, rows: 0 };
  const days = ctx.config.retentionDays;
  if (days === undefined) return result;
  const cutoff = new Date(ctx.clock().getTime() - days * 86_400_000).toISOString();
  for (;;) {
    if (signal?.aborted) return result;
    const hidden = await ctx.store.compliance.hideExpired(cutoff, IMPORTS_PER_BATCH);
    if (hidden.length === 0) {
      // Webhook events (and their delivery logs) expire with the imports they could be about.
      while (!signal?.aborted && (await ctx.store.webhooks.pruneEvents(cutoff, EVENTS_PER_BATCH)) === EVENTS_PER_BATCH);
      return result;
    }
    for (const id of hidden) {
      // Stopping midway leaves this import (and the rest of the batch) hidden: left-over writes, removed at next start.
      result.rows += await removeHiddenImport(ctx, id, signal);
      if (signal?.aborted) return result;
      result.imports++;
    }
  }
}

/**
 * Runs `purgeExpiredImports` now and then every `intervalMs` (hourly in `serve`), never two at once.
 * The timer is unref'd: it never keeps the process alive. `stop()` cancels the schedule, interrupts a
 * running purge between two transactions and resolves once it has returned (call it before closing the
 * database).
 */
export function scheduleRetention(
  ctx: ServiceContext,
  report: { purged(result: PurgeResult): void; failed(error: unknown): void },
  intervalMs = 3_600_000,
): { stop(): Promise<void> } {
  if (ctx.config.retentionDays === undefined) return { stop: async () => undefined };
  const abort = new AbortController();
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= purgeExpiredImports(ctx, abort.signal)
      .then((result) => report.purged(result), (error: unknown) => report.failed(error))
      .finally(() => {
        running = undefined;
      });
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      abort.abort();
      await running;
    },
  };
}
