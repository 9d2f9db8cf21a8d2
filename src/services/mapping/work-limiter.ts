import pLimit, { type LimitFunction } from 'p-limit';
import { ServiceError } from '../errors';

/** Calls that wait for a turn, per call allowed to run at once; past them a call is refused. */
const WAITING_PER_RUNNING = 8;

/**
 * Bounds the header-mapping work in flight in this process (DESIGN.md "Limits"). The budget bounds one call,
 * and the rate limit allows thousands a minute per key: concurrent long calls would share the event loop
 * in ~10 ms slices, so another request would wait a slice of each. At most `concurrency` long calls work
 * at once, up to 8 times as many wait their turn, and past that a call fails with 429 rate_limited.
 */
export class MappingWorkLimiter {
  private readonly limit: LimitFunction;

  constructor(private readonly concurrency: number) {
    this.limit = pLimit(concurrency);
  }

  /** Runs `work` when a turn is free. Throws rate_limited (with Retry-After) when too many calls wait. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const waiting = this.limit.pendingCount;
    if (waiting >= this.concurrency * WAITING_PER_RUNNING) {
      // A long call takes about a second of work: the queue drains in about that per call ahead.
      const retryAfter = Math.max(1, Math.ceil(waiting / this.concurrency));
      throw new ServiceError('rate_limited', `too many header mappings are in progress on this server; retry after ${retryAfter} s`, undefined, retryAfter);
    }
    return this.limit(work);
  }
}
