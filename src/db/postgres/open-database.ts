import pg from 'pg';
import { drizzle, type NodePgDatabase, type NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import { DatabaseFileError } from '../sqlite/database-file';
import { folderMigrationSource, loadMigrations, type MigrationSource } from '../sqlite/migrations';
import { redactDatabaseUrl } from '../../core/database-url';
import * as schema from './schema';

export type PgDb = NodePgDatabase<typeof schema>;

/** The pool's database or one transaction on one client: what a query function runs on. */
export type PgExecutor = PgDatabase<NodePgQueryResultHKT, typeof schema>;

export interface PgStorage {
  db: PgDb;
  pool: pg.Pool;
  /** True when this open applied the first migration (the database had no tables of importd before). */
  created: boolean;
  close(): Promise<void>;
}

export interface PgOpenOptions {
  migrations?: MigrationSource;
  /** Migrate a database that has no importd tables yet; default true. Otherwise such a database is an error. */
  create?: boolean;
  /** Connections this process keeps at most (node-postgres' default is 10). */
  poolSize?: number;
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
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // An idle client losing its server (a restart, a failover) must not crash the process: the next query reconnects.
  pool.on('error', () => undefined);
  const db = drizzle({ client: pool, schema });
  try {
    const created = await migrate(pool, options.migrations ?? folderMigrationSource(__dirname, 'postgres'), options.create ?? true, redactDatabaseUrl(url));
    return { db, pool, created, close: () => pool.end() };
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (error instanceof DatabaseFileError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseFileError('unusable', redactDatabaseUrl(url), `cannot use ${redactDatabaseUrl(url)} as the database: ${reason}`);
  }
}

/** Applies pending migrations on one client holding the advisory lock; returns true when the database was empty. */
async function migrate(pool: pg.Pool, source: MigrationSource, create: boolean, shownUrl: string): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const { rows } = await client.query<{ found: string | null }>("SELECT to_regclass('drizzle.__drizzle_migrations')::text AS found");
      const empty = rows[0]?.found == null;
      if (empty && !create) {
        throw new DatabaseFileError('missing', shownUrl, `no importd tables in ${shownUrl}`);
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
    client.release();
  }
}
