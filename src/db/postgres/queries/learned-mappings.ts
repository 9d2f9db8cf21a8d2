import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { LearnedMappingRow } from '../../store';
import type { PgExecutor } from '../open-database';
import { learnedMappings } from '../schema';

/** Inserts or replaces the label remembered for each schema key of the account. */
export async function upsertLearnedMappings(db: PgExecutor, rows: LearnedMappingRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(learnedMappings)
    .values(rows)
    .onConflictDoUpdate({
      target: [learnedMappings.accountId, learnedMappings.schemaKey],
      set: { fileLabel: sql`excluded.file_label`, updatedAt: sql`excluded.updated_at` },
    });
}

/** Keeps the account's `keep` most recently confirmed entries (entries as recent as the last kept one stay too). */
export async function trimLearnedMappings(db: PgExecutor, accountId: string, keep: number): Promise<void> {
  const oldestKept = await db
    .select({ updatedAt: learnedMappings.updatedAt })
    .from(learnedMappings)
    .where(eq(learnedMappings.accountId, accountId))
    .orderBy(desc(learnedMappings.updatedAt))
    .limit(1)
    .offset(keep - 1);
  if (oldestKept.length === 0) return;
  await db.delete(learnedMappings).where(and(eq(learnedMappings.accountId, accountId), lt(learnedMappings.updatedAt, oldestKept[0]!.updatedAt)));
}

export async function findLearnedMappings(db: PgExecutor, accountId: string, schemaKeys: string[]): Promise<LearnedMappingRow[]> {
  if (schemaKeys.length === 0) return [];
  return await db
    .select()
    .from(learnedMappings)
    .where(and(eq(learnedMappings.accountId, accountId), inArray(learnedMappings.schemaKey, schemaKeys)));
}

export async function listLearnedMappingsOfAccount(db: PgExecutor, accountId: string): Promise<LearnedMappingRow[]> {
  return await db.select().from(learnedMappings).where(eq(learnedMappings.accountId, accountId)).orderBy(asc(learnedMappings.schemaKey));
}

/** Deletes one schema key's entry, or every entry of the account; returns how many were deleted. */
export async function deleteLearnedMappings(db: PgExecutor, accountId: string, schemaKey?: string): Promise<number> {
  const where =
    schemaKey === undefined ? eq(learnedMappings.accountId, accountId) : and(eq(learnedMappings.accountId, accountId), eq(learnedMappings.schemaKey, schemaKey));
  return (await db.delete(learnedMappings).where(where)).rowCount ?? 0;
}
