import { eq } from 'drizzle-orm';
import type { ThemeRow } from '../../store';
import type { PgExecutor } from '../open-database';
import { themes } from '../schema';

export type ThemeChanges = Omit<ThemeRow, 'id' | 'accountId' | 'createdAt'>;

export async function findThemeOfAccount(db: PgExecutor, accountId: string): Promise<ThemeRow | undefined> {
  return (await db.select().from(themes).where(eq(themes.accountId, accountId)).limit(1))[0];
}

export async function insertTheme(db: PgExecutor, row: ThemeRow): Promise<void> {
  await db.insert(themes).values(row);
}

/** Returns the updated row, or undefined when the account has no theme. */
export async function updateThemeRow(db: PgExecutor, accountId: string, changes: ThemeChanges): Promise<ThemeRow | undefined> {
  return (await db.update(themes).set(changes).where(eq(themes.accountId, accountId)).returning())[0];
}

/** Inserts the theme, or replaces the account's theme's members in the same statement; returns the stored row. */
export async function upsertTheme(db: PgExecutor, row: ThemeRow): Promise<ThemeRow> {
  const { id: _id, accountId: _account, createdAt: _created, ...changes } = row;
  return (await db.insert(themes).values(row).onConflictDoUpdate({ target: themes.accountId, set: changes }).returning())[0]!;
}
