import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { learnedTrims, type LearnedListRow, type LearnedPairRow, type LearnedMappingsWrite, type LearnedScope } from '../../store';
import type { Db } from '../open-database';
import { learnedMappings, templates } from '../schema';

// Most recent first; entries confirmed at the same moment (one import's) by schema key and value, so trimming is exact.
const RECENT_FIRST = [desc(learnedMappings.updatedAt), desc(learnedMappings.schemaKey), desc(learnedMappings.fileValue)];

const PAIR = {
  templateId: learnedMappings.templateId,
  schemaKey: learnedMappings.schemaKey,
  fileValue: learnedMappings.fileValue,
  fileLabel: learnedMappings.fileLabel,
  endUsers: sql<number>`sum(${learnedMappings.confirmer} <> '')`.mapWith(Number),
  secretKey: sql<boolean>`max(${learnedMappings.confirmer} = '')`.mapWith((v) => Number(v) === 1),
  updatedAt: sql<string>`max(${learnedMappings.updatedAt})`,
};

/** Keeps the confirmer's `keep` most recent entries of the template. */
function keepRecent(db: Db, accountId: string, templateId: string, confirmer: string, keep: number): void {
  const mine = and(eq(learnedMappings.accountId, accountId), eq(learnedMappings.confirmer, confirmer), eq(learnedMappings.templateId, templateId));
  const lastKept = db
    .select({ updatedAt: learnedMappings.updatedAt, schemaKey: learnedMappings.schemaKey, fileValue: learnedMappings.fileValue })
    .from(learnedMappings)
    .where(mine)
    .orderBy(...RECENT_FIRST)
    .limit(1)
    .offset(Math.max(keep - 1, 0))
    .get();
  if (!lastKept) return;
  const older = sql`(${learnedMappings.updatedAt}, ${learnedMappings.schemaKey}, ${learnedMappings.fileValue}) ${keep === 0 ? sql`<=` : sql`<`} (${lastKept.updatedAt}, ${lastKept.schemaKey}, ${lastKept.fileValue})`;
  db.delete(learnedMappings).where(and(mine, older)).run();
}

/** Inserts or replaces each entry, then applies the caps (LearnedMappingsWrite); run inside the caller's transaction. */
export function rememberLearnedMappings(db: Db, write: LearnedMappingsWrite): void {
  const { accountId, templateId, confirmer, rows } = write;
  if (rows.length === 0) return;
  db.insert(learnedMappings)
    .values(rows)
    .onConflictDoUpdate({
      target: [learnedMappings.accountId, learnedMappings.templateId, learnedMappings.schemaKey, learnedMappings.fileValue, learnedMappings.confirmer],
      set: { fileLabel: sql`excluded.file_label`, updatedAt: sql`excluded.updated_at` },
    })
    .run();
  if (confirmer !== '') keepRecent(db, accountId, templateId, confirmer, write.keepPerEndUser);
  const ofTemplate = and(eq(learnedMappings.accountId, accountId), eq(learnedMappings.templateId, templateId));
  const counts = db.select({ confirmer: learnedMappings.confirmer, entries: sql<number>`count(*)`.mapWith(Number) }).from(learnedMappings).where(ofTemplate).groupBy(learnedMappings.confirmer).all();
  const excess = counts.reduce((sum, c) => sum + c.entries, 0) - write.keepPerTemplate;
  if (excess > 0) for (const trim of learnedTrims(counts, excess)) keepRecent(db, accountId, templateId, trim.confirmer, trim.keep);
}

export function findLearnedPairs(db: Db, accountId: string, templateId: string, schemaKeys: string[]): LearnedPairRow[] {
  if (schemaKeys.length === 0) return [];
  return db
    .select(PAIR)
    .from(learnedMappings)
    .where(and(eq(learnedMappings.accountId, accountId), eq(learnedMappings.templateId, templateId), inArray(learnedMappings.schemaKey, schemaKeys)))
    .groupBy(learnedMappings.schemaKey, learnedMappings.fileValue, learnedMappings.fileLabel)
    .all();
}

export function listLearnedPairs(db: Db, accountId: string, templateId?: string): LearnedListRow[] {
  const where = templateId === undefined ? eq(learnedMappings.accountId, accountId) : and(eq(learnedMappings.accountId, accountId), eq(learnedMappings.templateId, templateId));
  return db
    .select({ ...PAIR, templateKey: templates.key })
    .from(learnedMappings)
    .innerJoin(templates, eq(templates.id, learnedMappings.templateId))
    .where(where)
    .groupBy(learnedMappings.templateId, learnedMappings.schemaKey, learnedMappings.fileValue, learnedMappings.fileLabel)
    .orderBy(asc(templates.key), asc(learnedMappings.schemaKey), asc(learnedMappings.fileValue), asc(learnedMappings.fileLabel))
    .all();
}

function scopeCondition(accountId: string, scope: LearnedScope): SQL | undefined {
  if ('all' in scope) return eq(learnedMappings.accountId, accountId);
  const template = and(eq(learnedMappings.accountId, accountId), eq(learnedMappings.templateId, scope.templateId));
  return scope.schemaKey === undefined ? template : and(template, eq(learnedMappings.schemaKey, scope.schemaKey));
}

/** Deletes what the scope names; returns how many entries were deleted. */
export function deleteLearnedMappings(db: Db, accountId: string, scope: LearnedScope): number {
  return db.delete(learnedMappings).where(scopeCondition(accountId, scope)).run().changes;
}

/** Deletes one confirmer's entries in the account; returns how many. */
export function deleteLearnedOfConfirmer(db: Db, accountId: string, confirmer: string): number {
  return db.delete(learnedMappings).where(and(eq(learnedMappings.accountId, accountId), eq(learnedMappings.confirmer, confirmer))).run().changes;
}
