import { eq } from 'drizzle-orm';
import type { Db } from '../open-database';
import { themes } from '../schema';

export type ThemeRow = typeof themes.$inferSelect;

export function findThemeOfAccount(db: Db, accountId: string): ThemeRow | undefined {
  return db.select().from(themes).where(eq(themes.accountId, accountId)).get();
}

export function insertTheme(db: Db, row: ThemeRow): void {
  db.insert(themes).values(row).run();
}

export function updateThemeRow(db: Db, accountId: string, changes: Omit<ThemeRow, 'id' | 'accountId' | 'createdAt'>): void {
  db.update(themes).set(changes).where(eq(themes.accountId, accountId)).run();
}
