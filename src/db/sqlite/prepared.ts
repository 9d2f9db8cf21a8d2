import type { Db } from './open-database';

/**
 * A query built and prepared once per database, then reused: drizzle builds SQL on every call (~200 µs),
 * which dominates a small request; a prepared query with placeholders costs what a raw statement does.
 */
export function preparedQuery<T>(build: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let query = cache.get(db);
    if (query === undefined) cache.set(db, (query = build(db)));
    return query;
  };
}

/** A raw better-sqlite3 statement, prepared once per database: for the hottest reads, where drizzle's row mapping shows. */
export function rawQuery<T>(build: (sqlite: Db['$client']) => T): (db: Db) => T {
  return preparedQuery((db) => build(db.$client));
}

