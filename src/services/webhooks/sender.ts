import type { ClaimedDelivery } from '../../db/store';
import type { ServiceContext } from '../context';
import { postWebhook, type PostOutcome } from './post-webhook';

/** Deliveries one claim takes (and sends at once). */
const CLAIM_BATCH = 16;
/** A lease outlives the attempt (bounded by the timeout) by this much; a sender that died frees its deliveries then. */
const LEASE_MARGIN_MS = 5_000;

export interface SenderReport {
  attempted(delivery: Pick<ClaimedDelivery, 'endpointId' | 'eventId'>, attempt: number, outcome: PostOutcome): void;
  failed(error: unknown): void;
}

/**
 * One pass of the sender: leases the due deliveries (CLAIM_BATCH at a time, for the attempt timeout plus
 * LEASE_MARGIN_MS, so those of a sender that died are taken up again after that), sends each, and records the outcome with the lease:
 * delivered for good on a 2xx, else due again after the next wait of IMPORTD_WEBHOOK_RETRY_SCHEDULE or
 * failed when the schedule is over. Repeats until nothing is due; `signal` stops it between two claims.
 */
export async function sendDueDeliveries(ctx: ServiceContext, report?: Pick<SenderReport, 'attempted'>, signal?: AbortSignal): Promise<number> {
  const { timeoutMs } = ctx.config.webhooks;
  let sent = 0;
  while (!signal?.aborted) {
    const now = ctx.clock().getTime();
    const leaseUntil = new Date(now + timeoutMs + LEASE_MARGIN_MS).toISOString();
    const claimed = await ctx.store.webhooks.claimDue(new Date(now).toISOString(), ctx.store.nodeId, leaseUntil, CLAIM_BATCH);
    if (claimed.length === 0) break;
    await Promise.all(claimed.map((delivery) => attempt(ctx, delivery, report)));
    sent += claimed.length;
  }
  return sent;
}

async function attempt(ctx: ServiceContext, delivery: ClaimedDelivery, report?: Pick<SenderReport, 'attempted'>): Promise<void> {
  const { timeoutMs, allowPrivate, retrySchedule, disableAfterMs } = ctx.config.webhooks;
  const outcome = await postWebhook(delivery.url, delivery.secret, delivery.eventId, delivery.payload, { timeoutMs, allowPrivate, at: ctx.clock() });
  const attempts = delivery.attempts + 1;
  report?.attempted(delivery, attempts, outcome);
  const at = ctx.clock();
  const wait = retrySchedule[attempts - 1];
  const last = outcome.error ?? `HTTP ${outcome.statusCode}`;
  await ctx.store.webhooks.recordAttempt({
    endpointId: delivery.endpointId,
    eventId: delivery.eventId,
    owner: ctx.store.nodeId,
    at: at.toISOString(),
    ok: outcome.ok,
    statusCode: outcome.statusCode,
    response: outcome.response,
    error: outcome.error,
    nextAttemptAt: outcome.ok || wait === undefined ? null : new Date(at.getTime() + wait * 1000).toISOString(),
    disable: {
      failingSince: new Date(at.getTime() - disableAfterMs).toISOString(),
      reason: `disabled at ${at.toISOString()}: every attempt failed for ${Math.round(disableAfterMs / 1000)} s (IMPORTD_WEBHOOK_DISABLE_AFTER_SECONDS); last: ${last}`,
    },
  });
}

/**
 * Runs the sender in the background of `serve` (never on a request's path): a pass at once, then one at
 * each event this process writes (ctx.webhookWake) or every `pollMs` (events written by other processes,
 * retries coming due). `stop()` ends it after the attempts in flight (each bounded by the timeout).
 */
export function startWebhookSender(ctx: ServiceContext, report: SenderReport, pollMs = 1000): { stop(): Promise<void> } {
  const abort = new AbortController();
  const loop = (async () => {
    while (!abort.signal.aborted) {
      await sendDueDeliveries(ctx, report, abort.signal).catch((error: unknown) => report.failed(error));
      if (!abort.signal.aborted) await ctx.webhookWake.wait(pollMs);
    }
  })();
  return {
    async stop() {
      abort.abort();
      ctx.webhookWake.notify();
      await loop;
    },
  };
}
