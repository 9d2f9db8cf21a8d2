import { isoTime } from '../../core/clock';
import { normalizeRequestOrigin, originAllowed } from '../../core/origins';
import { allActiveOrigins } from '../../db/sqlite/queries/environments';
import type { ServiceContext } from '../context';

/**
 * The request's origin (normalised) when some active Public Key of this server allows it, else undefined.
 * What may be told to a browser before a key is known: preflights, and errors answered before the key is
 * checked (so an SDK can read a 401, 413 or 429 instead of seeing a network failure).
 */
export function originAllowedByAnyKey(ctx: ServiceContext, originHeader: string | undefined): string | undefined {
  const origin = normalizeRequestOrigin(originHeader);
  if (!origin) return undefined;
  return allActiveOrigins(ctx.db, isoTime(ctx.clock)).some((allowed) => originAllowed(origin, allowed)) ? origin : undefined;
}
