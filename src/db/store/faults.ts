/**
 * The one place a storage engine's failures are told apart from importd's own bugs: a database that cannot be
 * reached or does not answer in time (`unavailable`: the request may succeed if retried; 503), or one that
 * has no room left (`full`: 507). Anything else is undefined (a 500). Engines' codes stay here: the service
 * layer and the transports ask this function, never look at a code themselves.
 */
export type DatabaseFault = 'unavailable' | 'full';

/** PostgreSQL SQLSTATEs (https://www.postgresql.org/docs/current/errcodes-appendix.html) that are no bug of ours. */
const PG_UNAVAILABLE = new Set([
  '57014', // query_canceled: statement_timeout
  '57P01', // admin_shutdown: pg_terminate_backend, a fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, in recovery
  '53300', // too_many_connections
  '25P03', // idle_in_transaction_session_timeout
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);
const PG_FULL = new Set(['53100']); // disk_full

/** Node's socket errors of a database server that went away or never answered. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** node-postgres and pg-pool say these in messages only (no code). */
const PG_CLIENT_MESSAGES =
  /^(Connection terminated|Connection terminated unexpectedly|Connection terminated due to connection timeout|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)$/;

export function databaseFault(error: unknown): DatabaseFault | undefined {
  // drizzle wraps the driver's error as its cause; a COPY's failure may be wrapped once more.
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (code === 'SQLITE_FULL') return 'full';
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'unavailable';
      if (PG_FULL.has(code)) return 'full';
      if (PG_UNAVAILABLE.has(code) || code.startsWith('08') || SOCKET_CODES.has(code)) return 'unavailable';
    }
    if (PG_CLIENT_MESSAGES.test(at.message)) return 'unavailable';
  }
  return undefined;
}
