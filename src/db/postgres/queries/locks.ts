import { and, eq, lte, or } from 'drizzle-orm';
import type { PgExecutor } from '../open-database';
import { locks } from '../schema';

/** One statement: the lease is taken when missing, ran out, or already the owner's; otherwise nothing changes. */
export async function tryAcquireLock(db: PgExecutor, name: string, owner: string, now: string, until: string): Promise<boolean> {
  const result = await db
    .insert(locks)
    .values({ name, owner, expiresAt: until })
    .onConflictDoUpdate({ target: locks.name, set: { owner, expiresAt: until }, setWhere: or(lte(locks.expiresAt, now), eq(locks.owner, owner)) });
  return result.rowCount === 1;
}

export async function releaseLock(db: PgExecutor, name: string, owner: string): Promise<void> {
  await db.delete(locks).where(and(eq(locks.name, name), eq(locks.owner, owner)));
}
