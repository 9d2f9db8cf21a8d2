import { asc, eq } from 'drizzle-orm';
import type { Db } from '../open-database';
import { accounts } from '../schema';

export type AccountRow = typeof accounts.$inferSelect;

export function findAccountByName(db: Db, name: string): AccountRow | undefined {
  return db.select().from(accounts).where(eq(accounts.name, name)).get();
}

/** Every account, oldest first (a server has a handful: one per customer). */
export function listAccountRows(db: Db): AccountRow[] {
  return db.select().from(accounts).orderBy(asc(accounts.createdAt), asc(accounts.id)).all();
}

export function insertAccount(db: Db, row: AccountRow): void {
  db.insert(accounts).values(row).run();
}

/** Inserts unless an account of that name exists (two processes may race to create the default one). */
export function insertAccountIfMissing(db: Db, row: AccountRow): void {
  db.insert(accounts).values(row).onConflictDoNothing().run();
}
