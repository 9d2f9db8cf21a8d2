import { lt, sql } from 'drizzle-orm';
import type { RateLimitStore } from '../../store';
import type { PgExecutor } from '../open-database';
import { rateLimits } from '../schema';

/**
 * The rate-limit counters every node shares: one upsert per request and window answers the window's count so
 * far, atomically whatever the number of nodes. The first request a node counts in a new window also deletes
 * the windows before it (one statement per node and window), so the table holds about one row per active key.
 */
export function createPgRateLimits(db: PgExecutor): RateLimitStore {
  let pruned = -1;
  return {
    async hit(keyId, windowStart) {
      if (windowStart > pruned) {
        pruned = windowStart;
        await db.delete(rateLimits).where(lt(rateLimits.windowStart, windowStart));
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
