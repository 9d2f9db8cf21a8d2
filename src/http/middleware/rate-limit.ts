import { countKeyRequest, type KeyPrincipal } from '../../services/auth';
import type { ServiceContext } from '../../services/context';

/**
 * Counts one request of the key from the client `clientAddress` gives (services/auth/count-key-request.ts) and sets
 * the RateLimit-* headers with `setHeader`, on every counted answer, the 429 included; throws rate_limited past
 * the limit.
 */
export async function limitKeyRate(
  ctx: ServiceContext,
  key: KeyPrincipal,
  clientAddress: () => string | undefined,
  setHeader: (name: string, value: string) => void,
): Promise<void> {
  await countKeyRequest(ctx, key, clientAddress, (state) => {
    setHeader('RateLimit-Limit', String(state.limit));
    setHeader('RateLimit-Remaining', String(state.remaining));
    setHeader('RateLimit-Reset', String(state.resetSeconds));
  });
}
