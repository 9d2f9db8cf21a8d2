import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../open-database';
import { preparedQuery } from '../prepared';
import { sessions } from '../schema';

export type SessionRow = typeof sessions.$inferSelect;

export function insertSession(db: Db, row: SessionRow): void {
  db.insert(sessions).values(row).run();
}

const sessionByJti = preparedQuery((db) => db.select().from(sessions).where(eq(sessions.jti, sql.placeholder('jti'))).prepare());

/** Runs on every session-bound request, hence prepared once. */
export function findSession(db: Db, jti: string): SessionRow | undefined {
  return sessionByJti(db).get({ jti });
}

export function findAccountSession(db: Db, accountId: string, jti: string): SessionRow | undefined {
  return db.select().from(sessions).where(and(eq(sessions.accountId, accountId), eq(sessions.jti, jti))).get();
}

/** Sets revokedAt unless it is set: the first revocation's time stays. */
export function revokeSessionRow(db: Db, jti: string, at: string): void {
  db.update(sessions).set({ revokedAt: at }).where(and(eq(sessions.jti, jti), isNull(sessions.revokedAt))).run();
}
