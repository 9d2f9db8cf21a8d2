import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { LearnedMappingsWrite } from '../../store';
import type { Db } from '../open-database';
import { learnedMappings } from '../schema';

export type LearnedMappingRow = typeof learnedMappings.$inferSelect;

// Most recent first; entries confirmed at the same moment (one import's) by schema key, so trimming is exact.
const RECENT_FIRST = [desc(learnedMappings.updatedAt), desc(learnedMappings.schemaKey)];

/** Inserts or replaces each entry, then keeps the account's `keep` most recent; run inside the caller's transaction. */
export function rememberLearnedMappings(db: Db, { accountId, rows, keep }: LearnedMappingsWrite): void {
  if (rows.length === 0) return;
  db.insert(learnedMappings)
    .values(rows)
    .onConflictDoUpdate({
      target: [learnedMappings.accountId, learnedMappings.schemaKey],
      set: { fileLabel: sql`excluded.file_label`, updatedAt: sql`excluded.updated_at` },
    })
    .run();
  const lastKept = db
    .select({ updatedAt: learnedMappings.updatedAt, schemaKey: learnedMappings.schemaKey })
    .from(learnedMappings)
    .where(eq(learnedMappings.accountId, accountId))
    .orderBy(...RECENT_FIRST)
    .limit(1)
    .offset(keep - 1)
    .get();
  if (!lastKept) return;
  db.delete(learnedMappings)
    .where(
      and(
        eq(learnedMappings.accountId, accountId),
        sql`(${learnedMappings.updatedAt}, ${learnedMappings.schemaKey}) < (${lastKept.updatedAt}, ${lastKept.schemaKey})`,
      ),
    )
    .run();
}

export function findLearnedMappings(db: Db, accountId: string, schemaKeys: string[]): LearnedMappingRow[] {
  if (schemaKeys.length === 0) return [];
  return db
    .select()
    .from(learnedMappings)
    .where(and(eq(learnedMappings.accountId, accountId), inArray(learnedMappings.schemaKey, schemaKeys)))
    .orderBy(...RECENT_FIRST)
    .all();
}

export function listLearnedMappingsOfAccount(db: Db, accountId: string): LearnedMappingRow[] {
  return db.select().from(learnedMappings).where(eq(learnedMappings.accountId, accountId)).orderBy(asc(learnedMappings.schemaKey)).all();
}

/** Deletes one schema key's entry, or every entry of the account; returns how many were deleted. */
export function deleteLearnedMappings(db: Db, accountId: string, schemaKey?: string): number {
  const where = schemaKey === undefined ? eq(learnedMappings.accountId, accountId) : and(eq(learnedMappings.accountId, accountId), eq(learnedMappings.schemaKey, schemaKey));
  return db.delete(learnedMappings).where(where).run().changes;
}
