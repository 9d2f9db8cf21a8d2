import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { learnedTrims, type LearnedListRow, type LearnedMappingsWrite, type LearnedPairRow, type LearnedScope } from '../../store';
import type { PgExecutor } from '../open-database';
import { learnedMappings, templates } from '../schema';

// Most recent first; entries confirmed at the same moment (one import's) by schema key and value, so trimming is exact.
const RECENT_FIRST = [desc(learnedMappings.updatedAt), desc(learnedMappings.schemaKey), desc(learnedMappings.fileValue)];

const PAIR = {
  templateId: learnedMappings.templateId,
  schemaKey: learnedMappings.schemaKey,
  fileValue: learnedMappings.fileValue,
  fileLabel: learnedMappings.fileLabel,
  endUsers: sql<number>`count(*) FILTER (WHERE ${learnedMappings.confirmer} <> '')`.mapWith(Number),
  secretKey: sql<boolean>`bool_or(${learnedMappings.confirmer} = '')`,
  updatedAt: sql<string>`max(${learnedMappings.updatedAt})`,
};

/**
 * Takes the account's learned-mapping lock until the transaction ends: two imports of one account remembering
 * their labels (or a forget) would otherwise lock the same rows in different orders and deadlock, and two
 * trims of one template would each count the other's entries.
 */
async function lockAccountEntries(tx: PgExecutor, accountId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`importd.learned.${accountId}`}))`);
}

/** Keeps the confirmer's `keep` most recent entries of the template. */
async function keepRecent(tx: PgExecutor, accountId: string, templateId: string, confirmer: string, keep: number): Promise<void> {
  const mine = and(eq(learnedMappings.accountId, accountId), eq(learnedMappings.confirmer, confirmer), eq(learnedMappings.templateId, templateId));
  const [lastKept] = await tx
    .select({ updatedAt: learnedMappings.updatedAt, schemaKey: learnedMappings.schemaKey, fileValue: learnedMappings.fileValue })
    .from(learnedMappings)
    .where(mine)
    .orderBy(...RECENT_FIRST)
    .limit(1)
    .offset(Math.max(keep - 1, 0));
  if (!lastKept) return;
  const older = sql`(${learnedMappings.updatedAt}, ${learnedMappings.schemaKey}, ${learnedMappings.fileValue}) ${keep === 0 ? sql`<=` : sql`<`} (${lastKept.updatedAt}, ${lastKept.schemaKey}, ${lastKept.fileValue})`;
  await tx.delete(learnedMappings).where(and(mine, older));
}

/** Inserts or replaces each entry, then applies the caps (LearnedMappingsWrite); run inside the caller's transaction. */
export async function rememberLearnedMappings(tx: PgExecutor, write: LearnedMappingsWrite): Promise<void> {
  const { accountId, templateId, confirmer, rows } = write;
  if (rows.length === 0) return;
  await lockAccountEntries(tx, accountId);
  await tx
    .insert(learnedMappings)
    .values(rows)
    .onConflictDoUpdate({
      target: [learnedMappings.accountId, learnedMappings.templateId, learnedMappings.schemaKey, learnedMappings.fileValue, learnedMappings.confirmer],
      set: { fileLabel: sql`excluded.file_label`, updatedAt: sql`excluded.updated_at` },
    });
  if (confirmer !== '') await keepRecent(tx, accountId, templateId, confirmer, write.keepPerEndUser);
  const ofTemplate = and(eq(learnedMappings.accountId, accountId), eq(learnedMappings.templateId, templateId));
  const counts = await tx.select({ confirmer: learnedMappings.confirmer, entries: sql<number>`count(*)`.mapWith(Number) }).from(learnedMappings).where(ofTemplate).groupBy(learnedMappings.confirmer);
  const excess = counts.reduce((sum, c) => sum + c.entries, 0) - write.keepPerTemplate;
  if (excess > 0) for (const trim of learnedTrims(counts, excess)) await keepRecent(tx, accountId, templateId, trim.confirmer, trim.keep);
}

export async function findLearnedPairs(db: PgExecutor, accountId: string, templateId: string, schemaKeys: string[]): Promise<LearnedPairRow[]> {
  if (schemaKeys.length === 0) return [];
  return await db
    .select(PAIR)
    .from(learnedMappings)
    .where(and(eq(learnedMappings.accountId, accountId), eq(learnedMappings.templateId, templateId), inArray(learnedMappings.schemaKey, schemaKeys)))
    .groupBy(learnedMappings.templateId, learnedMappings.schemaKey, learnedMappings.fileValue, learnedMappings.fileLabel);
}

export async function listLearnedPairs(db: PgExecutor, accountId: string, templateId?: string): Promise<LearnedListRow[]> {
  const where = templateId === undefined ? eq(learnedMappings.accountId, accountId) : and(eq(learnedMappings.accountId, accountId), eq(learnedMappings.templateId, templateId));
  return await db
    .select({ ...PAIR, templateKey: templates.key })
    .from(learnedMappings)
    .innerJoin(templates, eq(templates.id, learnedMappings.templateId))
    .where(where)
    .groupBy(learnedMappings.templateId, templates.key, learnedMappings.schemaKey, learnedMappings.fileValue, learnedMappings.fileLabel)
    .orderBy(asc(templates.key), asc(learnedMappings.schemaKey), asc(learnedMappings.fileValue), asc(learnedMappings.fileLabel));
}

function scopeCondition(accountId: string, scope: LearnedScope): SQL | undefined {
  if ('all' in scope) return eq(learnedMappings.accountId, accountId);
  const template = and(eq(learnedMappings.accountId, accountId), eq(learnedMappings.templateId, scope.templateId));
  return scope.schemaKey === undefined ? template : and(template, eq(learnedMappings.schemaKey, scope.schemaKey));
}

/** Deletes what the scope names (under the account's lock); returns how many entries were deleted. */
export async function deleteLearnedMappings(tx: PgExecutor, accountId: string, scope: LearnedScope): Promise<number> {
  await lockAccountEntries(tx, accountId);
  return (await tx.delete(learnedMappings).where(scopeCondition(accountId, scope))).rowCount ?? 0;
}

/** Deletes one confirmer's entries in the account (under its lock); returns how many. */
export async function deleteLearnedOfConfirmer(tx: PgExecutor, accountId: string, confirmer: string): Promise<number> {
  await lockAccountEntries(tx, accountId);
  return (await tx.delete(learnedMappings).where(and(eq(learnedMappings.accountId, accountId), eq(learnedMappings.confirmer, confirmer)))).rowCount ?? 0;
}
