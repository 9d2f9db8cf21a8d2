import { activeKeysOf, deactivateApiKey, setKeyExpiry } from '../../db/sqlite/queries/environments';
import { WRITE_TRANSACTION } from '../../db/sqlite/open-database';
import type { ServiceContext } from '../context';
import { parseInput } from '../validate';
import { issueKey } from './issue-key';
import { RollKeyInput, type RolledKey } from './schemas';
import { findManagedEnvironment, type EnvironmentScope } from './scope';

/**
 * Replaces the environment's current key of one kind with a new one, whose value is in this result only. The
 * previous key stops working at once (default) or after `expireOldInSeconds` (at most 7 days), so a leaked
 * key is cut off now and a routine roll can be deployed first. A new Public Key keeps the allowed origins.
 * Throws validation_failed, not_found (also for another environment than a Secret Key's own).
 */
export function rollEnvironmentKey(ctx: ServiceContext, scope: EnvironmentScope, name: string, input: RollKeyInput): RolledKey {
  const { kind, expireOldInSeconds } = parseInput(RollKeyInput, input);
  const now = ctx.clock();
  const createdAt = now.toISOString();
  const expiresAt = new Date(now.getTime() + expireOldInSeconds * 1000).toISOString();
  return ctx.db.transaction(() => {
    const environment = findManagedEnvironment(ctx, scope, name);
    const previous = activeKeysOf(ctx.db, [environment.id]).find((key) => key.kind === kind && key.expiresAt === null);
    if (!previous) throw new Error(`environment ${environment.id} has no active ${kind} key`);
    if (expireOldInSeconds === 0) deactivateApiKey(ctx.db, previous.id, createdAt);
    else setKeyExpiry(ctx.db, previous.id, expiresAt);
    const origins = kind === 'public' ? previous.allowedOrigins : [];
    const key = issueKey(ctx, environment, kind, origins, createdAt);
    return {
      kind,
      key: kind === 'public' ? { ...key, allowedOrigins: origins } : key,
      previous: { id: previous.id, prefix: previous.prefix, expiresAt },
    };
  }, WRITE_TRANSACTION);
}

