import type { EnvironmentRow } from '../../db/store';
import type { ServiceContext } from '../context';
import { notFound } from '../errors';

/**
 * Whose environments a caller may manage: the operator (CLI) any of the account's; a Secret Key only its own
 * (`ownEnvironmentId`), so one environment's key can never reconfigure another (DESIGN.md "Tenancy").
 */
export interface EnvironmentScope {
  accountId: string;
  ownEnvironmentId?: string;
}

/** The named environment if the scope may manage it. Throws not_found (also for one it may not manage). */
export async function findManagedEnvironment(ctx: ServiceContext, scope: EnvironmentScope, name: string): Promise<EnvironmentRow> {
  const environment = await ctx.store.environments.findByName(scope.accountId, name);
  if (!environment || (scope.ownEnvironmentId !== undefined && environment.id !== scope.ownEnvironmentId)) {
    throw notFound(`environment ${name}`);
  }
  return environment;
}
