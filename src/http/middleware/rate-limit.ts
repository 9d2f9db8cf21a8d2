import type { Context } from 'hono';
import type { ServiceContext } from '../../services/context';
import { ServiceError } from '../../services/errors';

/**
 * A per-key fixed-window request counter (IMPORTD_RATE_LIMIT requests per IMPORTD_RATE_WINDOW_SECONDS).
 *
 * Why not hono-rate-limiter: it is not a dependency yet, and it derives its key before the route's
 * authentication runs, while this limit is per authenticated key id. Its default memory store is the same
 * fixed window, so this is the same algorithm in 40 lines. A fixed window lets a key send up to twice the
 * limit across one window boundary; the limit is a guard against runaway clients, not a billing meter.
 * Memory is bounded by the number of keys that exist (only authenticated requests are counted), and each
 * window forgets the previous one.
 */
export interface RateLimiter {
  /** Counts one request of the key; sets the RateLimit-* headers; throws rate_limited past the limit. */
  hit(c: Context, keyId: string): void;
}

export function createRateLimiter(ctx: Pick<ServiceContext, 'clock' | 'config'>): RateLimiter {
  const { limit, windowSeconds } = ctx.config.rateLimit;
  const windowMs = windowSeconds * 1000;
  let windowStart = -1;
  let counts = new Map<string, number>();
  return {
    hit(c, keyId) {
      if (limit === 0) return;
      const now = ctx.clock().getTime();
      const start = now - (now % windowMs);
      if (start !== windowStart) {
        windowStart = start;
        counts = new Map();
      }
      const count = (counts.get(keyId) ?? 0) + 1;
      counts.set(keyId, count);
      const resetSeconds = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
      c.header('RateLimit-Limit', String(limit));
      c.header('RateLimit-Remaining', String(Math.max(0, limit - count)));
      c.header('RateLimit-Reset', String(resetSeconds));
      if (count > limit) {
        throw new ServiceError('rate_limited', `more than ${limit} requests in ${windowSeconds} s with this key; retry after ${resetSeconds} s`, undefined, resetSeconds);
      }
    },
  };
}

const limiters = new WeakMap<object, RateLimiter>();

/**
 * The limiter of a service context: one per running app, without threading it through every route factory.
 * Keyed weakly by the context, so each test harness (and each process) has its own counters.
 */
export function rateLimiterOf(ctx: Pick<ServiceContext, 'clock' | 'config'>): RateLimiter {
  let limiter = limiters.get(ctx);
  if (!limiter) limiters.set(ctx, (limiter = createRateLimiter(ctx)));
  return limiter;
}
