import type { ServiceContext } from '../context';
import { DATABASE_RETRY_AFTER_SECONDS, databaseFaultError, ServiceError } from '../errors';

/**
 * How long readiness waits for the database: a load balancer's probe must get its answer (and take the node
 * out) well before its own timeout, whatever the pools' timeouts are.
 */
export const READINESS_TIMEOUT_MS = 1_000;

const unavailable = (message: string) => new ServiceError('database_unavailable', message, undefined, DATABASE_RETRY_AFTER_SECONDS);

/**
 * Resolves when the database answers a query within READINESS_TIMEOUT_MS and has room to write; throws
 * database_unavailable (503) otherwise, its message saying which.
 */
export async function checkReadiness(ctx: ServiceContext): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(unavailable(`the database did not answer within ${READINESS_TIMEOUT_MS} ms`)), READINESS_TIMEOUT_MS);
  });
  try {
    await Promise.race([ctx.store.admin.ping().then(async () => await ctx.store.admin.full()), late]).then((full) => {
      if (full) throw unavailable('the database has no space left (writes answer 507 insufficient_storage until an operator frees some)');
    });
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw databaseFaultError(error) ?? error;
  } finally {
    clearTimeout(timer);
  }
}

/** Told of every error a request answers with: a refusal for want of space makes readiness probe for room. */
export function noteRequestError(ctx: ServiceContext, error: ServiceError): void {
  if (error.code === 'insufficient_storage') ctx.store.admin.noteFull();
}
