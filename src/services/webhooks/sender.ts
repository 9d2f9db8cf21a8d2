import type { ClaimedDelivery } from '../../db/store';
import type { ServiceContext } from '../context';
import { postWebhook, type PostOutcome } from './post-webhook';

/** Attempts one sender has in flight at most. */
const CONCURRENCY = 16;
/**
 * Attempts to one endpoint one sender has in flight at most: a receiver that never answers holds this many
 * of the CONCURRENCY slots for the timeout, and every other endpoint's deliveries go on through the others.
 */
const PER_ENDPOINT = 4;
/**
 * Attempts to one account's endpoints one sender has in flight at most: an account may register many endpoints,
 * and several that never answer must not hold every slot either.
 */
const PER_ACCOUNT = 8;
/** A lease outlives the attempt (bounded by the timeout) by this much; a sender that died frees its deliveries then. */
const LEASE_MARGIN_MS = 5_000;

export interface SenderReport {
  attempted(delivery: Pick<ClaimedDelivery, 'endpointId' | 'eventId'>, attempt: number, outcome: PostOutcome): void;
  failed(error: unknown): void;
}

/**
 * One pass of the sender: keeps up to CONCURRENCY attempts in flight, at most PER_ENDPOINT to one endpoint and
 * PER_ACCOUNT to one account's endpoints,
 * leasing due deliveries as slots free (for the attempt timeout plus LEASE_MARGIN_MS, so those of a sender
 * that died are taken up again after that), and records each outcome with the lease: delivered for good on a
 * 2xx, else due again after the next wait of IMPORTD_WEBHOOK_RETRY_SCHEDULE or failed when the schedule is
 * over. While attempts are in flight and slots free, it claims again at each event written here
 * (ctx.webhookWake) or every `pollMs`. Ends when nothing is due and nothing is in flight; `signal` stops the
 * claims, and the attempts in flight are awaited. An attempt whose outcome could not be recorded goes to
 * `report.failed` as it happens (else the first is thrown at the end). Answers how many attempts it made.
 */
export async function sendDueDeliveries(
  ctx: ServiceContext,
  report?: Pick<SenderReport, 'attempted'> & Partial<Pick<SenderReport, 'failed'>>,
  signal?: AbortSignal,
  pollMs = 1000,
): Promise<number> {
  const { timeoutMs } = ctx.config.webhooks;
  const perEndpoint: Record<string, number> = {};
  const perAccount: Record<string, number> = {};
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  let failure: { error: unknown } | undefined;
  // Set while the pass waits with room to spare: called by the next attempt to end.
  let attemptEnded: (() => void) | undefined;
  try {
    while (!signal?.aborted) {
      const room = CONCURRENCY - inFlight.size;
      const now = ctx.clock().getTime();
      const busy = inFlight.size > 0;
      const claimed =
        room === 0
          ? []
          : await ctx.store.webhooks.claimDue({
              now: new Date(now).toISOString(),
              owner: ctx.store.nodeId,
              leaseUntil: new Date(now + timeoutMs + LEASE_MARGIN_MS).toISOString(),
              limit: room,
              perEndpoint: PER_ENDPOINT,
              perAccount: PER_ACCOUNT,
              inFlight: { endpoints: perEndpoint, accounts: perAccount },
            });
      for (const delivery of claimed) {
        count(perEndpoint, delivery.endpointId, 1);
        count(perAccount, delivery.accountId, 1);
        // Never rejects. An attempt that could not be recorded goes to report.failed at once (a pass may last as
        // long as events keep coming, and its delivery is sent again at each lease expiry meanwhile); without
        // one, the first such error is thrown once the others have ended.
        const running: Promise<void> = attempt(ctx, delivery, report)
          .catch((error: unknown) => (report?.failed ? report.failed(error) : void (failure ??= { error })))
          .finally(() => {
            inFlight.delete(running);
            count(perEndpoint, delivery.endpointId, -1);
            count(perAccount, delivery.accountId, -1);
            attemptEnded?.();
          });
        inFlight.add(running);
        sent += 1;
      }
      if (claimed.length > 0 && inFlight.size < CONCURRENCY) continue;
      // Nothing claimed and nothing left in flight: done, unless attempts in flight when the claim began held
      // their endpoints or accounts at their caps and ended while it ran: then claim once more.
      if (inFlight.size === 0) {
        if (!busy) break;
        continue;
      }
      // Full: wait for an attempt to end. Nothing due beside the endpoints in flight: wait for an attempt to end,
      // an event written here (webhookWake) or `pollMs` (retries coming due, other processes' events), then
      // claim again: attempts that hang for the timeout must not hold back what the free slots could send.
      if (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
      else {
        const withdrawn = new AbortController();
        // One promise for "an attempt ended", not a race over every attempt in flight: wakes may come by the
        // thousand while attempts hang, and each race would leave a reaction on each of them until it ends.
        await Promise.race([new Promise<void>((resolve) => (attemptEnded = resolve)), ctx.webhookWake.wait(pollMs, withdrawn.signal)]);
        attemptEnded = undefined;
        withdrawn.abort();
      }
    }
  } finally {
    await Promise.all(inFlight);
  }
  if (failure) throw failure.error;
  return sent;
}

/** Adds `by` to `key`'s count, dropping it at zero (the counts go to the claim as JSON). */
function count(counts: Record<string, number>, key: string, by: number): void {
  const next = (counts[key] ?? 0) + by;
  if (next === 0) delete counts[key];
  else counts[key] = next;
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
      await sendDueDeliveries(ctx, report, abort.signal, pollMs).catch((error: unknown) => report.failed(error));
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
