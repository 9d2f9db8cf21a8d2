import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import { parseInput } from '../validate';
import { newKey } from './issue-key';
import { RollKeyInput, type RolledKey } from './schemas';
import { findManagedEnvironment, type EnvironmentScope } from './scope';

/**
 * Replaces the environment's current key of one kind with a new one, whose value is in this result only. The
 * previous key stops working at once (default) or after `expireOldInSeconds` (at most 7 days), so a leaked
 * key is cut off now and a routine roll can be deployed first. A new Public Key keeps the allowed origins.
 * Throws validation_failed, not_found (also for another environment than a Secret Key's own).
 */
export async function rollEnvironmentKey(ctx: ServiceContext, scope: EnvironmentScope, name: string, input: RollKeyInput): Promise<RolledKey> {
  const { kind, expireOldInSeconds } = parseInput(RollKeyInput, input);
  const now = ctx.clock();
  const createdAt = now.toISOString();
  const expiresAt = new Date(now.getTime() + expireOldInSeconds * 1000).toISOString();
  const environment = await findManagedEnvironment(ctx, scope, name);
  const fresh = newKey(environment, kind, [], createdAt);
  const previous = await ctx.store.environments.rollKey(fresh.row, expireOldInSeconds === 0 ? null : expiresAt);
  // No current key: the environment was deleted since it was found.
  if (!previous) throw notFound(`environment ${name}`);
  const origins = kind === 'public' ? previous.allowedOrigins : [];
  return {
    kind,
    key: kind === 'public' ? { ...fresh.view, allowedOrigins: origins } : fresh.view,
    previous: { id: previous.id, prefix: previous.prefix, expiresAt },
  };
}

