/**
 * A statement per query shape and database, prepared on first use and kept: both engines build their list
 * queries with drizzle once per shape (building costs more than running them) and bind values per request.
 */
export function cachedStatement<D extends object, T>(db: D, caches: WeakMap<D, Map<string, T>>, shape: string, prepare: () => T): T {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let statement = cache.get(shape);
  if (!statement) cache.set(shape, (statement = prepare()));
  return statement;
}
