import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { publicKeyClient } from './client-bucket';
import type { KeyPrincipal } from './principal';

/** Where a key stands in the current rate-limit window. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends (at least 1). */
  resetSeconds: number;
}

/**
 * Counts one request of an authenticated key against IMPORTD_RATE_LIMIT per IMPORTD_RATE_WINDOW_SECONDS, a
 * fixed window counted in the store, so every node on one database counts into the same window: a Secret Key's
 * per key, a Public Key's per key and client address (client-bucket.ts); then against IMPORTD_ACCOUNT_RATE_LIMIT
 * for the key's account, all its keys and addresses together. Call it only for a request the key is
 * accepted for (kind, origin): a refused one must not use up the key's allowance. `onState` sees the state
 * (nothing when the limit is off) before rate_limited is thrown past the limit.
 *
 * Why not hono-rate-limiter: it derives its key before the route's authentication runs, while this limit is per
 * authenticated key id, and its stores are per process. A fixed window lets a key send up to twice the limit
 * across one window boundary; the limit is a guard against runaway clients, not a billing meter.
 */
export async function countKeyRequest(
  ctx: ServiceContext,
  key: KeyPrincipal,
  clientAddress: () => string | undefined,
  onState: (state: RateLimitState) => void,
): Promise<void> {
  const { limit, perAccount, windowSeconds } = ctx.config.rateLimit;
  if (limit === 0 && perAccount === 0) return;
  const windowMs = windowSeconds * 1000;
  const now = ctx.clock().getTime();
  const start = now - (now % windowMs);
  const resetSeconds = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
  if (limit > 0) {
    const count = await ctx.store.rateLimits.hit(publicKeyClient(key, clientAddress) ?? key.keyId, start, windowMs);
    onState({ limit, remaining: Math.max(0, limit - count), resetSeconds });
    if (count > limit) {
      throw new ServiceError('rate_limited', `more than ${limit} requests in ${windowSeconds} s with this key${key.kind === 'public' ? ' from this address' : ''}; retry after ${resetSeconds} s`, undefined, resetSeconds);
    }
  }
  // Every key of the account together (each environment brings keys, and a roll more): the bucket holds a
  // space, so it never meets a key id's.
  if (perAccount > 0 && (await ctx.store.rateLimits.hit(`account ${key.accountId}`, start, windowMs)) > perAccount) {
    throw new ServiceError(
      'rate_limited',
      `more than ${perAccount} requests in ${windowSeconds} s for this account, all its keys together (IMPORTD_ACCOUNT_RATE_LIMIT); retry after ${resetSeconds} s`,
      undefined,
      resetSeconds,
    );
  }
}
