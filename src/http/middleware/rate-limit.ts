import type { Context } from 'hono';
import { countKeyRequest } from '../../services/auth';
import type { ServiceContext } from '../../services/context';

/**
 * Counts one request of the key (services/auth/count-key-request.ts) and sets the RateLimit-* headers, on
 * every authenticated answer, the 429 included; throws rate_limited past the limit.
 */
export async function limitKeyRate(c: Context, ctx: ServiceContext, keyId: string): Promise<void> {
  await countKeyRequest(ctx, keyId, (state) => {
    c.header('RateLimit-Limit', String(state.limit));
    c.header('RateLimit-Remaining', String(state.remaining));
    c.header('RateLimit-Reset', String(state.resetSeconds));
  });
}
