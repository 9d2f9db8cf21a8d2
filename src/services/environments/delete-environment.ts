import { isoTime } from '../../core/clock';
import type { ServiceContext } from '../context';
import type { DeletedEnvironment } from './schemas';
import { findManagedEnvironment, type EnvironmentScope } from './scope';

/**
 * Deletes an environment in one transaction: both keys (and any rolled one in its grace period) deactivated,
 * every session of it revoked, the environment gone from lists and lookups (its name free again). Its imports
 * stay and still name it. Throws not_found.
 */
export async function deleteEnvironment(ctx: ServiceContext, scope: EnvironmentScope, name: string): Promise<DeletedEnvironment> {
  const deletedAt = isoTime(ctx.clock);
  const environment = await findManagedEnvironment(ctx, scope, name);
  const { keys, sessions } = await ctx.store.environments.delete(environment.id, deletedAt);
  return { name, deletedAt, deactivatedKeys: keys, revokedSessions: sessions };
}
