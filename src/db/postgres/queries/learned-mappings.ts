import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { LearnedMappingRow, LearnedMappingsWrite } from '../../store';
import type { PgExecutor } from '../open-database';
import { learnedMappings } from '../schema';

// Most recent first; entries confirmed at the same moment (one import's) by schema key, so trimming is exact.
const RECENT_FIRST = [desc(learnedMappings.updatedAt), desc(learnedMappings.schemaKey)];

/**
 * Takes the account's learned-mapping lock until the transaction ends: two imports of one account remembering
 * their labels (or a forget) would otherwise lock the same rows in different orders and deadlock.
 */
async function lockAccountEntries(tx: PgExecutor, accountId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`importd.learned.${accountId}`}))`);
}

/** Inserts or replaces each entry, then keeps the account's `keep` most recent; run inside the caller's transaction. */
export async function rememberLearnedMappings(tx: PgExecutor, { accountId, rows, keep }: LearnedMappingsWrite): Promise<void> {
  if (rows.length === 0) return;
  await lockAccountEntries(tx, accountId);
  await tx
    .insert(learnedMappings)
    .values(rows)
    .onConflictDoUpdate({
      target: [learnedMappings.accountId, learnedMappings.schemaKey],
      set: { fileLabel: sql`excluded.file_label`, updatedAt: sql`excluded.updated_at` },
    });
  const [lastKept] = await tx
    .select({ updatedAt: learnedMappings.updatedAt, schemaKey: learnedMappings.schemaKey })
    .from(learnedMappings)
    .where(eq(learnedMappings.accountId, accountId))
    .orderBy(...RECENT_FIRST)
    .limit(1)
    .offset(keep - 1);
  if (!lastKept) return;
  await tx
    .delete(learnedMappings)
    .where(
      and(
        eq(learnedMappings.accountId, accountId),
        sql`(${learnedMappings.updatedAt}, ${learnedMappings.schemaKey}) < (${lastKept.updatedAt}, ${lastKept.schemaKey})`,
      ),
    );
}

export async function findLearnedMappings(db: PgExecutor, accountId: string, schemaKeys: string[]): Promise<LearnedMappingRow[]> {
  if (schemaKeys.length === 0) return [];
  return await db
    .select()
    .from(learnedMappings)
    .where(and(eq(learnedMappings.accountId, accountId), inArray(learnedMappings.schemaKey, schemaKeys)))
    .orderBy(...RECENT_FIRST);
}

export async function listLearnedMappingsOfAccount(db: PgExecutor, accountId: string): Promise<LearnedMappingRow[]> {
  return await db.select().from(learnedMappings).where(eq(learnedMappings.accountId, accountId)).orderBy(asc(learnedMappings.schemaKey));
}

/** Deletes one schema key's entry, or every entry of the account (under its lock); returns how many were deleted. */
export async function deleteLearnedMappings(tx: PgExecutor, accountId: string, schemaKey?: string): Promise<number> {
  await lockAccountEntries(tx, accountId);
  const where =
    schemaKey === undefined ? eq(learnedMappings.accountId, accountId) : and(eq(learnedMappings.accountId, accountId), eq(learnedMappings.schemaKey, schemaKey));
  return (await tx.delete(learnedMappings).where(where)).rowCount ?? 0;
}
