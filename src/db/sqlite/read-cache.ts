import type { ChangeStamp } from './change-stamp';

/** What a ReadCache may hold: a bound on its entries and on the bytes their values report. */
export interface ReadCacheLimits {
  entries: number;
  bytes: number;
}

const READ_CACHE_LIMITS: ReadCacheLimits = { entries: 4096, bytes: 16 * 1024 * 1024 };

/**
 * Results of reads kept while the database has not changed. Every read asks the change stamp first: a stamp
 * unlike the one the entries were read under forgets them all, so a commit anywhere (a key deactivated by the
 * CLI in another process, an import erased, a key's last use written) is seen by the next read, as without the
 * cache. The stamp is taken before the read, so a commit landing in between makes the entry stale under an
 * old stamp, never a stale entry under a new one. Without a stamp (no -shm file, a header being written) the
 * read runs every time. The values are shared between callers: never mutated.
 */
export interface ReadCache {
  read<T>(key: string, load: () => T, bytesOf?: (value: T) => number): T;
}

export function createReadCache(stamp: ChangeStamp, limits: ReadCacheLimits = READ_CACHE_LIMITS): ReadCache {
  let readUnder: Buffer | undefined;
  const entries = new Map<string, unknown>();
  let bytes = 0;
  const forget = () => {
    entries.clear();
    bytes = 0;
  };
  return {
    read(key, load, bytesOf) {
      const now = stamp();
      if (now === undefined) return load();
      if (readUnder === undefined || !readUnder.equals(now)) {
        forget();
        readUnder = Buffer.from(now);
      } else if (entries.has(key)) {
        return entries.get(key) as ReturnType<typeof load>;
      }
      const value = load();
      const size = bytesOf ? bytesOf(value) : 0;
      if (size > limits.bytes / 16) return value;
      // Full: start over rather than track recency; what is read again comes back at the next request.
      if (entries.size >= limits.entries || bytes + size > limits.bytes) forget();
      entries.set(key, value);
      bytes += size;
      return value;
    },
  };
}

/** A read cache that never keeps anything: for connections whose changes cannot be stamped. */
export const NO_READ_CACHE: ReadCache = { read: (_key, load) => load() };
