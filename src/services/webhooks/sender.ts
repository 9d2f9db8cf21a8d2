import type { ClaimedDelivery } from '../../db/store';
import type { ServiceContext } from '../context';
import { FANOUT_BATCH, FanOut } from './fan-out';
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
/**
 * Endpoints with pending deliveries one claim looks at, in id order from where the last one stopped: a claim's
 * cost stays bounded however many endpoints have deliveries pending (failing receivers' retries not yet due
 * included), and a turn of windows visits each once.
 */
const WINDOW = 256;
/**
 * A claim looks at every endpoint of its window whatever its limit: once an attempt ends, the pass gathers the next
 * ones to end (up to CLAIM_BATCH, each within CLAIM_GATHER_MS of the last) and claims for them together. Claiming
 * at each end took two claims per delivery (about 1.5 ms each over 50 endpoints, the second finding the account at
 * its cap) under a backlog, and another account's reads waited behind them.
 */
const CLAIM_BATCH = 8;
const CLAIM_GATHER_MS = 10;
/** A lease outlives the attempt (bounded by the timeout) by this much; a sender that died frees its deliveries then. */
const LEASE_MARGIN_MS = 5_000;

export interface SenderReport {
  attempted(delivery: Pick<ClaimedDelivery, 'endpointId' | 'eventId'>, attempt: number, outcome: PostOutcome): void;
  failed(error: unknown): void;
}

export interface PassOptions {
  /** How long a pass with attempts in flight and room to spare waits at most for a wake before claiming again. */
  pollMs?: number;
  /** Endpoints with pending deliveries looked at by one claim. */
  window?: number;
  /** Deliveries one fan-out makes for one event (FANOUT_BATCH). */
  fanoutBatch?: number;
}

/**
 * One pass of the sender: keeps up to CONCURRENCY attempts in flight, at most PER_ENDPOINT to one endpoint and
 * PER_ACCOUNT to one account's endpoints,
 * leasing due deliveries as slots free (for the attempt timeout plus LEASE_MARGIN_MS, so those of a sender
 * that died are taken up again after that), and records each outcome with the lease: delivered for good on a
 * 2xx, else due again after the next wait of IMPORTD_WEBHOOK_RETRY_SCHEDULE or failed when the schedule is
 * over. Due deliveries are looked for WINDOW endpoints at a time, round the endpoints with pending
 * deliveries. While attempts are in flight and slots free, it claims again at each event written here
 * (ctx.webhookWake) or every `pollMs`. Ends when nothing is due and nothing is in flight; `signal` stops the
 * claims, and the attempts in flight are awaited. An attempt whose outcome could not be recorded goes to
 * `report.failed` as it happens (else the first is thrown at the end). Answers how many attempts it made.
 */
export async function sendDueDeliveries(
  ctx: ServiceContext,
  report?: Pick<SenderReport, 'attempted'> & Partial<Pick<SenderReport, 'failed'>>,
  signal?: AbortSignal,
  { pollMs = 1000, window = WINDOW, fanoutBatch = FANOUT_BATCH }: PassOptions = {},
): Promise<number> {
  const { timeoutMs } = ctx.config.webhooks;
  const perEndpoint: Record<string, number> = {};
  const perAccount: Record<string, number> = {};
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  let failure: { error: unknown } | undefined;
  // Set while the pass waits with room to spare: called by the next attempt to end.
  let attemptEnded: (() => void) | undefined;
  // Where the next window starts (null: at the first endpoint), and the turn of windows that have found nothing
  // so far: where it began, whether it has gone past the last endpoint, and whether attempts were in flight.
  let cursor: string | null = null;
  let turn: { from: string | null; wrapped: boolean; busy: boolean } | undefined;
  const fanout = new FanOut(ctx, fanoutBatch);
  /** After an attempt ended: waits for the next ones to end, up to CLAIM_BATCH in all, each within CLAIM_GATHER_MS. */
  const gatherEnds = async (): Promise<void> => {
    for (let ended = 1; ended < CLAIM_BATCH && inFlight.size > 0 && !signal?.aborted; ended += 1) {
      let timer: NodeJS.Timeout | undefined;
      const more = await Promise.race([
        new Promise<boolean>((resolve) => (attemptEnded = () => resolve(true))),
        new Promise<boolean>((resolve) => (timer = setTimeout(resolve, CLAIM_GATHER_MS, false))),
      ]);
      clearTimeout(timer);
      attemptEnded = undefined;
      if (!more) return;
    }
  };
  try {
    while (!signal?.aborted) {
      const room = CONCURRENCY - inFlight.size;
      if (room === 0) {
        await Promise.race(inFlight);
        await gatherEnds();
        continue;
      }
      // At the start of each turn of windows: events written since get their deliveries (a batch per account).
      if (cursor === null) await fanout.step();
      const from = cursor;
      const endpoints = await ctx.store.webhooks.pendingEndpoints(from, window);
      const reachedEnd = endpoints.length < window;
      cursor = reachedEnd ? null : endpoints[endpoints.length - 1]!;
      const busy = inFlight.size > 0;
      const now = ctx.clock().getTime();
      const claimed =
        endpoints.length === 0
          ? []
          : await ctx.store.webhooks.claimDue({
              now: new Date(now).toISOString(),
              owner: ctx.store.nodeId,
              leaseUntil: new Date(now + timeoutMs + LEASE_MARGIN_MS).toISOString(),
              limit: room,
              perEndpoint: PER_ENDPOINT,
              perAccount: PER_ACCOUNT,
              inFlight: { endpoints: perEndpoint, accounts: perAccount },
              endpoints,
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
      if (claimed.length > 0) {
        turn = undefined;
        continue;
      }
      // Nothing in this window: on to the next, until a whole turn (every endpoint with pending deliveries once,
      // wrapping past the last) has found nothing.
      turn ??= { from, wrapped: false, busy: false };
      turn.busy ||= busy;
      const turnDone = turn.from === null ? reachedEnd : turn.wrapped && (reachedEnd || cursor! >= turn.from);
      if (reachedEnd) turn.wrapped = true;
      if (!turnDone) continue;
      const turnWasBusy = turn.busy;
      turn = undefined;
      // Nothing due and nothing left in flight: done, unless attempts in flight during the turn held their
      // endpoints or accounts at their caps and have ended since: then one more turn.
      if (inFlight.size === 0) {
        if (!turnWasBusy && fanout.idle) break;
        continue;
      }
      // Nothing due beside the endpoints in flight: wait for an attempt to end, an event written here
      // (webhookWake) or `pollMs` (retries coming due, other processes' events), then claim again: attempts that
      // hang for the timeout must not hold back what the free slots could send.
      const withdrawn = new AbortController();
      // One promise for "an attempt ended", not a race over every attempt in flight: wakes may come by the
      // thousand while attempts hang, and each race would leave a reaction on each of them until it ends.
      const woke = await Promise.race([new Promise<'ended'>((resolve) => (attemptEnded = () => resolve('ended'))), ctx.webhookWake.wait(pollMs, withdrawn.signal)]);
      attemptEnded = undefined;
      withdrawn.abort();
      if (woke === 'ended') await gatherEnds();
      // Woken: an event may have been written (the wake does not say), so the next turn fans out at once.
      fanout.poke();
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
      await sendDueDeliveries(ctx, report, abort.signal, { pollMs }).catch((error: unknown) => report.failed(error));
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
