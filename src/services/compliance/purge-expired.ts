import type { ServiceContext } from '../context';
import type { PurgeResult } from './schemas';

const IMPORTS_PER_BATCH = 50;
const ROWS_PER_BATCH = 5_000;

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Retention (IMPORTD_RETENTION_DAYS): deletes every import created more than that many days ago, with its
 * rows. No-op when retention is unset. Works in small transactions (at most 50 imports hidden, or 5 000
 * rows deleted, per transaction) and yields to the event loop between them, so a purge of millions of
 * rows never holds the database or the server for long. An expired import is first hidden (status
 * 'writing', never shown to readers) and then emptied, so no reader ever sees it partly deleted; a process
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
    const hidden = await ctx.store.compliance.hideExpired(cutoff, IMPORTS_PER_BATCH, process.pid);
    if (hidden.length === 0) return result;
    for (const id of hidden) {
      for (;;) {
        await yieldToRequests();
        // Stopping here leaves this import hidden and partly emptied: a left-over write, removed at next start.
        if (signal?.aborted) return result;
        const deleted = await ctx.store.compliance.deleteRows(id, ROWS_PER_BATCH);
        result.rows += deleted;
        if (deleted < ROWS_PER_BATCH) break;
      }
      await ctx.store.imports.delete(id);
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
