import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type { WorkerScript } from '../../core/worker-script';
import { IN_COMMIT_CHECKPOINTS, startCheckpointer } from './checkpoints';
import { DatabaseFileError, prepareDatabaseFile, unusable } from './database-file';
import { folderMigrationSource, loadMigrations, newerDatabase, type AppliedMigrations, type MigrationSource } from './migrations';
import * as schema from './schema';
import { createSpace, type Space } from './space';

// With the better-sqlite3 handle it wraps, for the raw statements of the hottest reads.
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export interface Storage {
  db: Db;
  sqlite: Database.Database;
  /** True when this open created the database file. */
  created: boolean;
  /** Synchronous unless a checkpoint thread runs (it stops first). */
  close(): void | Promise<void>;
  /** Whether the database has room to grow, and the reserve that lets deletions free some on a full disk. */
  space: Space;
  /** Awaited before each slice of a long write: waits while the checkpoint thread restarts the WAL. */
  writePause?: () => Promise<void>;
}

/**
 * The options of every transaction that writes: `db.transaction(fn, WRITE_TRANSACTION)` in a store method. A deferred
 * transaction that reads and then writes cannot wait for the lock when another connection (a CLI command,
 * a second process) wrote in between: SQLite fails it at once with SQLITE_BUSY, busy_timeout or not.
 * BEGIN IMMEDIATE takes the write lock first, so it waits its turn (up to busy_timeout) instead.
 */
export const WRITE_TRANSACTION = { behavior: 'immediate' } as const;

export interface OpenOptions {
  migrations?: MigrationSource;
  /** The loaded better-sqlite3 addon, when it cannot be found by path (inside the executable). */
  nativeBinding?: object;
  readonly?: boolean;
  /** Create the database (and its folders) when missing; default true. Otherwise a missing file is an error. */
  create?: boolean;
  /**
   * Checkpoint on a thread running this script instead of in commits (the serving process: src/main.ts), so
   * no request waits for a checkpoint's fsyncs. Ignored for `:memory:`.
   */
  checkpointWorker?: WorkerScript;
  /** The addon's file, for that thread, when the addon is given as a loaded module (inside the executable). */
  nativeBindingFile?: string;
  /** Keep a reserve file beside the database for deletions on a full disk (space.ts): the serving process. */
  reserveSpace?: boolean;
}

/**
 * Opens and migrates the database with the pragmas importd relies on. A missing file is created (0600, its
 * missing folders 0700) unless `create` is false. Throws DatabaseFileError naming the path when the file is
 * missing and not to be created, or cannot be created or opened as a database.
 */
export function openDatabase(file: string, options: OpenOptions = {}): Storage {
  const target = file === ':memory:' ? file : path.resolve(file);
  const created = target !== ':memory:' && prepareDatabaseFile(target, options.create ?? true);
  const sqlite = connect(target, options.nativeBinding);
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('cache_size = -32000');
  sqlite.pragma(IN_COMMIT_CHECKPOINTS);
  const db = drizzle({ client: sqlite, schema });
  const source = options.migrations ?? folderMigrationSource();
  const newer = newerDatabase(appliedMigrations(sqlite), source);
  if (newer) {
    sqlite.close();
    throw new DatabaseFileError('unusable', target, `cannot use ${target}: ${newer}`);
  }
  migrate(db, source);
  const space = createSpace(sqlite, target === ':memory:' ? undefined : target, options.reserveSpace ?? false);
  const closeConnection = () => {
    sqlite.close();
  };
  if (options.checkpointWorker === undefined || target === ':memory:') return { db, sqlite, created, space, close: closeConnection };
  const checkpointer = startCheckpointer(sqlite, target, options.checkpointWorker, options.nativeBindingFile);
  return {
    db,
    sqlite,
    created,
    space,
    writePause: checkpointer.pause,
    async close() {
      await checkpointer.stop();
      closeConnection();
    },
  };
}

/** Opens the connection in WAL mode; the first statement reads the file's header, so a file that is not a database fails here. */
function connect(file: string, nativeBinding: object | undefined): Database.Database {
  let sqlite: Database.Database | undefined;
  try {
    // The typings only know the path form of nativeBinding; better-sqlite3 also accepts the loaded module.
    sqlite = new Database(file, { nativeBinding: nativeBinding as string | undefined });
    // SQLite creates the -wal and -shm files with the database file's own mode (0600 when importd made it).
    sqlite.pragma('journal_mode = WAL');
    return sqlite;
  } catch (error) {
    sqlite?.close();
    throw unusable(file, error);
  }
}

/** What drizzle's migration table of the database holds (nothing yet in a new file). */
function appliedMigrations(sqlite: Database.Database): AppliedMigrations {
  const table = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!table) return { count: 0, lastMillis: null };
  const row = sqlite.prepare('SELECT count(*) AS count, max(created_at) AS last FROM __drizzle_migrations').get() as { count: number; last: number | null };
  return { count: row.count, lastMillis: row.last === null ? null : Number(row.last) };
}

/** Applies pending migrations; safe to run any number of times. */
export function migrate(db: Db, source: MigrationSource): void {
  // drizzle's folder migrator is a thin wrapper over this dialect call; feeding it the in-memory form lets
  // the executable apply migrations carried as assets without writing them to disk.
  const internal = db as unknown as { dialect: { migrate(m: unknown, s: unknown, c: object): void }; session: unknown };
  internal.dialect.migrate(loadMigrations(source), internal.session, { migrationsFolder: '' });
}
