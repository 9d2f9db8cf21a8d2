import pg from 'pg';
import { drizzle, type NodePgDatabase, type NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import { DatabaseFileError } from '../sqlite/database-file';
import { folderMigrationSource, loadMigrations, newerDatabase, type MigrationSource } from '../sqlite/migrations';
import { redactDatabaseUrl } from '../../core/database-url';
import { migrationClient, queryPoolTimeouts, survivingPool, writerPoolTimeouts } from './pools';
import * as schema from './schema';

export type PgDb = NodePgDatabase<typeof schema>;

/** The pool's database or one transaction on one client: what a query function runs on. */
export type PgExecutor = PgDatabase<NodePgQueryResultHKT, typeof schema>;

export interface PgStorage {
  db: PgDb;
  pool: pg.Pool;
  /**
   * The connections of imports being written (each holds one, in its COPY's transaction, until it completes):
   * a pool of their own, so imports in progress never take the connections every other request needs.
   */
  writerPool: pg.Pool;
  /** True when this open applied the first migration (the database had no tables of importd before). */
  created: boolean;
  close(): Promise<void>;
}

export interface PgOpenOptions {
  migrations?: MigrationSource;
  /** Migrate a database that has no importd tables yet; default true. Otherwise such a database is an error. */
  create?: boolean;
  /** Connections this process keeps at most for queries (node-postgres' default is 10). */
  poolSize?: number;
  /** Connections for imports being written at once; further imports wait for one (default 10). */
  writerPoolSize?: number;
  /** How long a connection, a statement and an idle transaction may take (Config.postgres); no limit when absent. */
  timeouts?: PgTimeouts;
}

export interface PgTimeouts {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

/**
 * Every node migrates under this session-level advisory lock (drizzle's pg migrator takes none): nodes
 * starting together on an empty database queue here, the first one applies the migrations, the others then
 * find nothing pending. The key is arbitrary but fixed ("importd" as ASCII).
 */
const MIGRATION_LOCK = 0x696d706f727464;

/**
 * Connects a pool to the PostgreSQL database of `url` and applies pending migrations. The database itself
 * must exist (PostgreSQL's operator creates it). Throws DatabaseFileError naming the URL (password hidden):
 * `unusable` when the server cannot be reached or refuses, `missing` when `create` is false and the database
 * was never migrated.
 */
export async function openPostgres(url: string, options: PgOpenOptions = {}): Promise<PgStorage> {
  // Named, so an operator tells importd's connections apart in pg_stat_activity.
  const pool = answerNulComparisons(survivingPool({ ...queryPoolTimeouts(options.timeouts), connectionString: url, max: options.poolSize ?? 10, application_name: 'importd' }));
  const writerPool = survivingPool({ ...writerPoolTimeouts(options.timeouts), connectionString: url, max: options.writerPoolSize ?? 10, application_name: 'importd writer' });
  const db = drizzle({ client: pool, schema });
  const close = async () => {
    await Promise.all([pool.end(), writerPool.end()]);
  };
  try {
    const source = options.migrations ?? folderMigrationSource(__dirname, 'postgres');
    const created = await migrate(migrationClient(url, options.timeouts), source, options.create ?? true, redactDatabaseUrl(url));
    return { db, pool, writerPool, created, close };
  } catch (error) {
    await close().catch(() => undefined);
    if (error instanceof DatabaseFileError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseFileError('unusable', redactDatabaseUrl(url), `cannot use ${redactDatabaseUrl(url)} as the database: ${reason}`);
  }
}

const hasNul = (value: unknown) => typeof value === 'string' && value.includes('\u0000');

/**
 * PostgreSQL's text cannot hold NUL (SQLite's can), so no stored value contains one: a statement other than
 * an INSERT given such a value (an id or a filter from a request) matches nothing, and answers so without
 * asking the server, which would refuse the value as an encoding error (a 500 where SQLite answers 404).
 */
function answerNulComparisons(pool: pg.Pool): pg.Pool {
  guardQueries(pool);
  // Transactions run on clients of their own: each new one gets the same guard.
  pool.on('connect', (client) => guardQueries(client));
  return pool;
}

function guardQueries(target: pg.Pool | pg.PoolClient): void {
  const query = target.query.bind(target) as (...args: unknown[]) => unknown;
  target.query = ((config: string | pg.QueryConfig, values?: unknown, callback?: unknown) => {
    const text = typeof config === 'string' ? config : config?.text;
    const params = Array.isArray(values) ? values : typeof config === 'string' ? undefined : config?.values;
    if (typeof text === 'string' && typeof callback !== 'function' && params?.some(hasNul) && !/^\s*insert\b/i.test(text)) {
      return Promise.resolve({ command: text.trim().split(/\s/, 1)[0]!.toUpperCase(), rowCount: 0, rows: [], fields: [], oid: 0 });
    }
    return query(config, values, callback);
  }) as typeof target.query;
}

/**
 * Applies pending migrations on one client holding the advisory lock; returns true when the database was empty.
 * Refuses a database a newer importd migrated (newerDatabase). The client is one of its own, without the pools'
 * statement timeout: a migration, or the wait for another node's, may take longer than a request's statement.
 */
async function migrate(client: pg.Client, source: MigrationSource, create: boolean, shownUrl: string): Promise<boolean> {
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const { rows } = await client.query<{ found: string | null }>("SELECT to_regclass('drizzle.__drizzle_migrations')::text AS found");
      const empty = rows[0]?.found == null;
      if (empty && !create) {
        throw new DatabaseFileError('missing', shownUrl, `no importd tables in ${shownUrl}`);
      }
      if (!empty) {
        const applied = await client.query<{ count: number; last: string | null }>(
          'SELECT count(*)::int AS count, max(created_at)::text AS last FROM drizzle.__drizzle_migrations',
        );
        const newer = newerDatabase({ count: applied.rows[0]!.count, lastMillis: applied.rows[0]!.last === null ? null : Number(applied.rows[0]!.last) }, source);
        if (newer) throw new DatabaseFileError('unusable', shownUrl, `cannot use ${shownUrl}: ${newer}`);
      }
      // drizzle's folder migrator is a thin wrapper over this dialect call; the in-memory form lets the
      // executable apply migrations carried as assets.
      const internal = drizzle({ client, schema }) as unknown as { dialect: { migrate(m: unknown, s: unknown, c: object): Promise<void> }; session: unknown };
      await internal.dialect.migrate(loadMigrations(source), internal.session, { migrationsFolder: '' });
      return empty;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
