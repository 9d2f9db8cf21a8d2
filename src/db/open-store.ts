import { isPostgresUrl } from '../core/database-url';
import { openPostgres, type PgTimeouts } from './postgres/open-database';
import { createPostgresStore } from './postgres/store';
import type { MigrationSource } from './sqlite/migrations';
import { openDatabase, type OpenOptions } from './sqlite/open-database';
import { createSqliteStore } from './sqlite/store';
import type { Store } from './store';

export interface OpenedStore {
  store: Store;
  /** True when this open created the database (SQLite: the file; PostgreSQL: importd's tables). */
  created: boolean;
  close(): Promise<void>;
}

export type OpenStoreOptions = OpenOptions & {
  /** PostgreSQL's migrations, when they are not in a `migrations/postgres/` folder (inside the executable). */
  pgMigrations?: MigrationSource;
  /** PostgreSQL connections for queries and for imports being written, and their timeouts (Config.postgres). */
  pgConnections?: { poolSize: number; writers: number } & PgTimeouts;
};

/**
 * Opens and migrates the database `target` names: a `postgres://` URL, or a SQLite file path. Throws
 * DatabaseFileError (src/db/sqlite/database-file.ts) when it is missing or unusable.
 */
export async function openStore(target: string, options: OpenStoreOptions = {}): Promise<OpenedStore> {
  if (isPostgresUrl(target)) {
    const storage = await openPostgres(target, {
      create: options.create,
      migrations: options.pgMigrations,
      poolSize: options.pgConnections?.poolSize,
      writerPoolSize: options.pgConnections?.writers,
      timeouts: options.pgConnections,
    });
    return opened(createPostgresStore(storage), storage);
  }
  const storage = openDatabase(target, options);
  return opened(createSqliteStore(storage), storage);
}

/** The store with a close that stops its notice listener before the connections go. */
function opened(store: Store, storage: { created: boolean; close(): void | Promise<void> }): OpenedStore {
  return {
    store,
    created: storage.created,
    async close() {
      await store.notices.close();
      await storage.close();
    },
  };
}
