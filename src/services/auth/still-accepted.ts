import { originAllowed } from '../../core/origins';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { acceptKey, presentedKeyHash } from './authenticate-key';
import type { Caller } from './principal';

/**
 * Whether a caller authenticated earlier would still be let in: its key is the same one, still active and
 * not past a roll's grace period, and a Public Key's origin is still allowed. For what outlives its request's
 * authentication (a theme stream open for hours): a rolled key, a removed origin or a deleted environment
 * ends it.
 */
export async function callerStillAccepted(ctx: ServiceContext, caller: Caller, presented: string): Promise<boolean> {
  try {
    const key = presentedKeyHash(presented);
    const current = await acceptKey(ctx, key, await ctx.store.environments.findKeyByHash(key.hash));
    if (current.keyId !== caller.principal.keyId) return false;
    return current.kind === 'secret' || (caller.origin !== undefined && originAllowed(caller.origin, current.allowedOrigins));
  } catch (error) {
    if (error instanceof ServiceError) return false;
    throw error;
  }
}
