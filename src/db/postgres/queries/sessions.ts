import { and, eq, isNull } from 'drizzle-orm';
import type { SessionRow } from '../../store';
import type { PgExecutor } from '../open-database';
import { sessions } from '../schema';

export async function insertSession(db: PgExecutor, row: SessionRow): Promise<void> {
  await db.insert(sessions).values(row);
}

export async function findSession(db: PgExecutor, jti: string): Promise<SessionRow | undefined> {
  return (await db.select().from(sessions).where(eq(sessions.jti, jti)).limit(1))[0];
}

export async function findAccountSession(db: PgExecutor, accountId: string, jti: string): Promise<SessionRow | undefined> {
  return (await db.select().from(sessions).where(and(eq(sessions.accountId, accountId), eq(sessions.jti, jti))).limit(1))[0];
}

/** Sets revokedAt unless it is set: the first revocation's time stays. */
export async function revokeSessionRow(db: PgExecutor, jti: string, at: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: at }).where(and(eq(sessions.jti, jti), isNull(sessions.revokedAt)));
}
