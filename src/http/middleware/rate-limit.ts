import type { Context } from 'hono';
import { countKeyRequest } from '../../services/auth';
import type { ServiceContext } from '../../services/context';
import { setHeader } from '../respond';

/**
 * Counts one request of the key (services/auth/count-key-request.ts) and sets the RateLimit-* headers, on
 * every authenticated answer, the 429 included; throws rate_limited past the limit.
 */
export async function limitKeyRate(c: Context, ctx: ServiceContext, keyId: string): Promise<void> {
  await countKeyRequest(ctx, keyId, (state) => {
    setHeader(c, 'RateLimit-Limit', String(state.limit));
    setHeader(c, 'RateLimit-Remaining', String(state.remaining));
    setHeader(c, 'RateLimit-Reset', String(state.resetSeconds));
  });
}
