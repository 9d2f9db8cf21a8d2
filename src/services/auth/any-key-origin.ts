import { isoTime } from '../../core/clock';
import { normalizeRequestOrigin, originAllowed } from '../../core/origins';
import type { ServiceContext } from '../context';

/**
 * The request's origin (normalised) when some active Public Key of this server allows it, else undefined.
 * What may be told to a browser before a key is known: preflights, and errors answered before the key is
 * checked (so an SDK can read a 401, 413 or 429 instead of seeing a network failure).
 */
export async function originAllowedByAnyKey(ctx: ServiceContext, originHeader: string | undefined): Promise<string | undefined> {
  const origin = normalizeRequestOrigin(originHeader);
  if (!origin) return undefined;
  const origins = await ctx.store.environments.allActiveOrigins(isoTime(ctx.clock));
  return origins.some((allowed) => originAllowed(origin, allowed)) ? origin : undefined;
}
