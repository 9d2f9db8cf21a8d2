import { lt, sql } from 'drizzle-orm';
import type { RateLimitStore } from '../../store';
import type { PgExecutor } from '../open-database';
import { rateLimits } from '../schema';

/**
 * The rate-limit counters every node shares: one upsert per request and window answers the window's count so
 * far, atomically whatever the number of nodes. The first request a node counts in a new window also deletes
 * the windows ended a whole window before it (one statement per node and window), so the table holds about two
 * rows per active key: a node whose clock runs ahead of the others' (by less than a window) must not delete the
 * window they are still counting in, which would give every key a fresh allowance on them.
 */
export function createPgRateLimits(db: PgExecutor): RateLimitStore {
  let pruned = -1;
  return {
    async hit(keyId, windowStart, windowMs) {
      if (windowStart > pruned) {
        pruned = windowStart;
        await db.delete(rateLimits).where(lt(rateLimits.windowStart, windowStart - windowMs));
      }
      const [row] = await db
        .insert(rateLimits)
        .values({ keyId, windowStart, count: 1 })
        .onConflictDoUpdate({ target: [rateLimits.keyId, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
        .returning({ count: rateLimits.count });
      return row!.count;
    },
  };
}
