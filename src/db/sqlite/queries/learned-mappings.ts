import { and, asc, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../open-database';
import { learnedMappings } from '../schema';

export type LearnedMappingRow = typeof learnedMappings.$inferSelect;

/** Inserts or replaces the label remembered for each schema key of the account. */
export function upsertLearnedMappings(db: Db, rows: LearnedMappingRow[]): void {
  if (rows.length === 0) return;
  db.insert(learnedMappings)
    .values(rows)
    .onConflictDoUpdate({
      target: [learnedMappings.accountId, learnedMappings.schemaKey],
      set: { fileLabel: sql`excluded.file_label`, updatedAt: sql`excluded.updated_at` },
    })
    .run();
}

/** Keeps the account's `keep` most recently confirmed entries; returns how many were dropped. */
export function trimLearnedMappings(db: Db, accountId: string, keep: number): number {
  const total = db.select({ n: count() }).from(learnedMappings).where(eq(learnedMappings.accountId, accountId)).get()!.n;
  if (total <= keep) return 0;
  const oldestKept = db
    .select({ updatedAt: learnedMappings.updatedAt })
    .from(learnedMappings)
    .where(eq(learnedMappings.accountId, accountId))
    .orderBy(desc(learnedMappings.updatedAt))
    .limit(1)
    .offset(keep - 1)
    .get()!;
  return db
    .delete(learnedMappings)
    .where(and(eq(learnedMappings.accountId, accountId), lt(learnedMappings.updatedAt, oldestKept.updatedAt)))
    .run().changes;
}

export function findLearnedMappings(db: Db, accountId: string, schemaKeys: string[]): LearnedMappingRow[] {
  if (schemaKeys.length === 0) return [];
  return db
    .select()
    .from(learnedMappings)
    .where(and(eq(learnedMappings.accountId, accountId), inArray(learnedMappings.schemaKey, schemaKeys)))
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
