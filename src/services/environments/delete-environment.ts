import { isoTime } from '../../core/clock';
import { deleteEnvironmentRow } from '../../db/sqlite/queries/environments';
import { WRITE_TRANSACTION } from '../../db/sqlite/open-database';
import type { ServiceContext } from '../context';
import type { DeletedEnvironment } from './schemas';
import { findManagedEnvironment, type EnvironmentScope } from './scope';

/**
 * Deletes an environment in one transaction: both keys (and any rolled one in its grace period) deactivated,
 * every session of it revoked, the environment gone from lists and lookups (its name free again). Its imports
 * stay and still name it. Throws not_found.
 */
export function deleteEnvironment(ctx: ServiceContext, scope: EnvironmentScope, name: string): DeletedEnvironment {
  const deletedAt = isoTime(ctx.clock);
  return ctx.db.transaction(() => {
    const environment = findManagedEnvironment(ctx, scope, name);
    const { keys, sessions } = deleteEnvironmentRow(ctx.db, environment.id, deletedAt);
    return { name, deletedAt, deactivatedKeys: keys, revokedSessions: sessions };
  }, WRITE_TRANSACTION);
}
