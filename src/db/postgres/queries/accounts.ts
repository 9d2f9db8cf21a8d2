import { asc, eq } from 'drizzle-orm';
import type { AccountRow } from '../../store';
import type { PgExecutor } from '../open-database';
import { accounts } from '../schema';

export async function findAccountByName(db: PgExecutor, name: string): Promise<AccountRow | undefined> {
  return (await db.select().from(accounts).where(eq(accounts.name, name)).limit(1))[0];
}

/** Every account, oldest first (a server has a handful: one per customer). */
export async function listAccountRows(db: PgExecutor): Promise<AccountRow[]> {
  return await db.select().from(accounts).orderBy(asc(accounts.createdAt), asc(accounts.id));
}

export async function insertAccount(db: PgExecutor, row: AccountRow): Promise<void> {
  await db.insert(accounts).values(row);
}

/** Inserts unless an account of that name exists (several nodes may race to create the default one). */
export async function insertAccountIfMissing(db: PgExecutor, row: AccountRow): Promise<void> {
  await db.insert(accounts).values(row).onConflictDoNothing();
}
