import pg from 'pg';
import type { PgTimeouts } from './open-database';

/**
 * How much longer than the server's statement_timeout this process waits for an answer before it gives the
 * connection up: the server cancels a slow statement itself (the connection stays usable), but a server that
 * does not answer at all (frozen, a network partition) can cancel nothing.
 */
const CLIENT_SLACK_MS = 1_000;

/** A COPY lasts as long as its upload streams: no read timeout of the writer pool applies to it (setTimeout's most). */
export const COPY_READ_TIMEOUT_MS = 2 ** 31 - 1;

/** The query pool: every statement bounded by the server and, should it not answer, by this process. */
export function queryPoolTimeouts(timeouts: PgTimeouts | undefined): pg.PoolConfig {
  if (!timeouts) return {};
  return {
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    statement_timeout: timeouts.statementTimeoutMs,
    query_timeout: timeouts.statementTimeoutMs + CLIENT_SLACK_MS,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionTimeoutMs,
  };
}

/**
 * The writer pool: no statement_timeout on the server, where an import's COPY is one statement for as long as
 * its upload lasts (row-copies.ts); the other statements of a batch are bounded here by the read timeout.
 */
export function writerPoolTimeouts(timeouts: PgTimeouts | undefined): pg.PoolConfig {
  if (!timeouts) return {};
  return {
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    query_timeout: timeouts.statementTimeoutMs + CLIENT_SLACK_MS,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionTimeoutMs,
  };
}

/**
 * A pool whose connections can fail without ending the process. pg-pool listens for `error` on idle clients
 * only: a checked-out client whose connection is lost (a restart, a failover, pg_terminate_backend) would emit
 * an unhandled `error` event. Every client gets a listener of its own for its whole life: its queries fail
 * (the request answers 503, an import's open batch rolls back with the connection), and pg-pool drops it
 * when it is released (no longer queryable). A query that gets no answer in time has its connection
 * destroyed the same way: it may still be running, and a connection whose answers are out of step with its
 * queries must never be handed to another request.
 */
export function survivingPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    cutOnReadTimeout(client);
  });
  return pool;
}

/** The migrations' connection: a client of its own, with the connect timeout only (a migration may take long). */
export function migrationClient(url: string, timeouts: PgTimeouts | undefined): pg.Client {
  const client = new pg.Client({ connectionString: url, application_name: 'importd migrate', connectionTimeoutMillis: timeouts?.connectTimeoutMs });
  client.on('error', () => undefined);
  return client;
}

const isReadTimeout = (error: unknown) => error instanceof Error && error.message === 'Query read timeout';

function cutOnReadTimeout(client: pg.PoolClient): void {
  const cut = () => (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const last = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (error: unknown, result: unknown) => {
        if (isReadTimeout(error)) cut();
        (last as (error: unknown, result: unknown) => void)(error, result);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        if (isReadTimeout(error)) cut();
        throw error;
      });
    }
    return result;
  }) as typeof client.query;
}
