import { randomBytes } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

// Which engine the suite runs on: `npm run test:pg` (scripts/test-pg.mjs) sets IMPORTD_TEST_DB to the URL of
// a migrated template database on a throw-away server; each test database is a fresh copy of it.

/** The template database's URL when the suite runs on PostgreSQL. */
export const TEST_PG_TEMPLATE = process.env.IMPORTD_TEST_DB;

export const testEngine: 'sqlite' | 'postgres' = TEST_PG_TEMPLATE ? 'postgres' : 'sqlite';

/**
 * Test options for a test or suite about SQLite itself (file modes, WAL, query plans, injected triggers):
 * skipped with the reason on PostgreSQL, where a counterpart covers the property when it matters.
 */
export const sqliteOnly = { skip: testEngine === 'postgres' ? 'about SQLite itself' : false } as const;

/** Test options for a test or suite about PostgreSQL itself: skipped with the reason on SQLite (`npm test`). */
export const postgresOnly = { skip: testEngine === 'sqlite' ? 'about PostgreSQL (npm run test:pg)' : false } as const;

let admin: pg.Pool | undefined;

/** Connections to the server's `postgres` database, for CREATE and DROP DATABASE; let the test process exit when idle. */
function adminPool(template: URL): pg.Pool {
  if (!admin) {
    const url = new URL(template);
    url.pathname = '/postgres';
    admin = new pg.Pool({ connectionString: url.toString(), max: 2, idleTimeoutMillis: 200, allowExitOnIdle: true });
  }
  return admin;
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A new PostgreSQL database for one test: a copy of the migrated template, or empty (`migrated: false`, as
 * a database an operator has just created).
 */
export async function createPgTestDatabase({ migrated = true } = {}): Promise<TestDatabase> {
  const template = new URL(TEST_PG_TEMPLATE!);
  const name = `importd_test_${randomBytes(6).toString('hex')}`;
  const pool = adminPool(template);
  const source = migrated ? template.pathname.slice(1) : 'template0';
  await pool.query(`CREATE DATABASE ${name} TEMPLATE ${source}`);
  const url = new URL(template);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await pool.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * The `--db` values of tests that run the real binary: files in `dir` on SQLite; on PostgreSQL new, empty
 * databases (the binary migrates them, as it would an operator's), all dropped by `drop`.
 */
export function binDatabases(dir: string) {
  const made: TestDatabase[] = [];
  return {
    async create(file = 'importd.db'): Promise<string> {
      if (testEngine === 'sqlite') return path.join(dir, file);
      const database = await createPgTestDatabase({ migrated: false });
      made.push(database);
      return database.url;
    },
    async drop(): Promise<void> {
      for (const database of made.splice(0)) await database.drop();
    },
  };
}

/** PostgreSQL's bigint (what count(*) answers) read as a number, as SQLite answers it. */
const numericCounts = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** Runs raw SQL written with `?` placeholders on a PostgreSQL pool (as `$1`, `$2`, ...): rows as SQLite answers them. */
export async function pgSql<T>(pool: pg.Pool, text: string, params: unknown[]): Promise<T[]> {
  let n = 0;
  const result = await pool.query({ text: text.replace(/\?/g, () => `$${++n}`), values: params, types: numericCounts });
  return result.rows as T[];
}

/** Runs raw SQL on a SQLite connection: rows of a query, none of a statement (booleans bound as 1 and 0). */
export function sqliteSql<T>(db: Database.Database, text: string, params: unknown[]): T[] {
  const statement = db.prepare(text);
  const values = params.map((value) => (typeof value === 'boolean' ? Number(value) : value));
  if (statement.reader) return statement.all(...values) as T[];
  statement.run(...values);
  return [];
}

/** Runs raw SQL on the database `target` names (a SQLite file or a PostgreSQL URL) over a connection of its own. */
export async function sqlOn<T = Record<string, any>>(target: string, text: string, ...params: unknown[]): Promise<T[]> {
  if (testEngine === 'sqlite') {
    const db = new Database(target);
    try {
      return sqliteSql<T>(db, text, params);
    } finally {
      db.close();
    }
  }
  const pool = new pg.Pool({ connectionString: target, max: 1 });
  try {
    return await pgSql<T>(pool, text, params);
  } finally {
    await pool.end();
  }
}
