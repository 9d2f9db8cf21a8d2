import { and, eq, lte, or } from 'drizzle-orm';
import type { Db } from '../open-database';
import { locks } from '../schema';

/** One statement: the lease is taken when missing, ran out, or already the owner's; otherwise nothing changes. */
export function tryAcquireLock(db: Db, name: string, owner: string, now: string, until: string): boolean {
  return (
    db
      .insert(locks)
      .values({ name, owner, expiresAt: until })
      .onConflictDoUpdate({
        target: locks.name,
        set: { owner, expiresAt: until },
        setWhere: or(lte(locks.expiresAt, now), eq(locks.owner, owner)),
      })
      .run().changes === 1
  );
}

export function releaseLock(db: Db, name: string, owner: string): void {
  db.delete(locks).where(and(eq(locks.name, name), eq(locks.owner, owner))).run();
}

