import type { ServiceContext } from '../context';

/** Resolves when the database answers a query; throws (a 500 for /readyz) when it does not. */
export async function checkReadiness(ctx: ServiceContext): Promise<void> {
  await ctx.store.admin.ping();
}
