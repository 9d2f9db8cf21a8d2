import type pg from 'pg';
import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { ApiKeyRow, EnvironmentRow } from '../../store';
import type { PgExecutor } from '../open-database';
import { apiKeys, environments, sessions } from '../schema';

export async function findEnvironmentByName(db: PgExecutor, accountId: string, name: string): Promise<EnvironmentRow | undefined> {
  const rows = await db
    .select()
    .from(environments)
    .where(and(eq(environments.accountId, accountId), eq(environments.name, name), isNull(environments.deletedAt)))
    .limit(1);
  return rows[0];
}

/** An environment by id, deleted or not (an import names its environment for good). */
export async function findEnvironmentById(db: PgExecutor, id: string): Promise<EnvironmentRow | undefined> {
  const rows = await db.select().from(environments).where(eq(environments.id, id)).limit(1);
  return rows[0];
}

export async function listEnvironmentRows(db: PgExecutor, accountId: string): Promise<EnvironmentRow[]> {
  return await db
    .select()
    .from(environments)
    .where(and(eq(environments.accountId, accountId), isNull(environments.deletedAt)))
    .orderBy(asc(environments.createdAt), asc(environments.id));
}

export async function insertEnvironment(db: PgExecutor, row: EnvironmentRow): Promise<void> {
  await db.insert(environments).values(row);
}

/** The account's live environments, counted under a lock on the account's row: creates of one account count in turn. */
export async function countLiveEnvironmentsLocked(tx: PgExecutor, accountId: string): Promise<number> {
  await tx.execute(sql`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`);
  return await tx.$count(environments, and(eq(environments.accountId, accountId), isNull(environments.deletedAt)));
}

export async function setAutoCreateTemplates(db: PgExecutor, environmentId: string, allowed: boolean): Promise<EnvironmentRow | undefined> {
  const rows = await db.update(environments).set({ autoCreateTemplates: allowed }).where(and(eq(environments.id, environmentId), isNull(environments.deletedAt))).returning();
  return rows[0];
}

export async function insertApiKeys(db: PgExecutor, rows: ApiKeyRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(apiKeys).values(rows);
}

/** The active keys of the given environments: the current one of each kind, and any rolled one still in its grace period. */
export async function activeKeysOf(db: PgExecutor, environmentIds: string[], lock = false): Promise<ApiKeyRow[]> {
  if (environmentIds.length === 0) return [];
  const query = db
    .select()
    .from(apiKeys)
    .where(and(inArray(apiKeys.environmentId, environmentIds), eq(apiKeys.active, true)));
  // A key roll reads then writes: the row lock makes two concurrent rolls of one environment take turns.
  return await (lock ? query.for('update') : query);
}

// Every authenticated request reads its key: a named statement (parsed once per connection), not a query
// drizzle builds on each call (most of a small read's server CPU on PostgreSQL, bench/pg.ts).
const KEY_BY_HASH = `SELECT id, account_id AS "accountId", environment_id AS "environmentId", kind, hash, prefix, active,
  allowed_origins AS "allowedOrigins", created_at AS "createdAt", last_used_at AS "lastUsedAt",
  deactivated_at AS "deactivatedAt", expires_at AS "expiresAt" FROM api_keys WHERE hash = $1`;

export async function findApiKeyByHash(pool: pg.Pool, hash: string): Promise<ApiKeyRow | undefined> {
  return (await pool.query<ApiKeyRow>({ name: 'api-key-by-hash', text: KEY_BY_HASH, values: [hash] })).rows[0];
}

export async function setAllowedOrigins(db: PgExecutor, environmentId: string, origins: string[]): Promise<void> {
  await db
    .update(apiKeys)
    .set({ allowedOrigins: origins })
    .where(and(eq(apiKeys.environmentId, environmentId), eq(apiKeys.kind, 'public'), eq(apiKeys.active, true)));
}

export async function deactivateApiKey(db: PgExecutor, keyId: string, at: string): Promise<void> {
  await db.update(apiKeys).set({ active: false, deactivatedAt: at }).where(eq(apiKeys.id, keyId));
}

export async function setKeyExpiry(db: PgExecutor, keyId: string, at: string): Promise<void> {
  await db.update(apiKeys).set({ expiresAt: at }).where(eq(apiKeys.id, keyId));
}

/** Never moves a time backwards: several nodes touch the same key, each throttling its own writes. */
export async function touchApiKey(db: PgExecutor, key: Pick<ApiKeyRow, 'id' | 'environmentId'>, at: string): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: at }).where(and(eq(apiKeys.id, key.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, at))));
  await db
    .update(environments)
    .set({ lastUsedAt: at })
    .where(and(eq(environments.id, key.environmentId), or(isNull(environments.lastUsedAt), lt(environments.lastUsedAt, at))));
}

/** Every key deactivated, every session revoked, the row marked deleted; returns how many keys and sessions were live. */
export async function deleteEnvironmentRow(db: PgExecutor, environmentId: string, at: string): Promise<{ keys: number; sessions: number }> {
  const keys = await db
    .update(apiKeys)
    .set({ active: false, deactivatedAt: at })
    .where(and(eq(apiKeys.environmentId, environmentId), eq(apiKeys.active, true)));
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.environmentId, environmentId), isNull(sessions.revokedAt)));
  await db.update(environments).set({ deletedAt: at }).where(and(eq(environments.id, environmentId), isNull(environments.deletedAt)));
  return { keys: keys.rowCount ?? 0, sessions: revoked.rowCount ?? 0 };
}

/** Every allowed origin of every usable Public Key: what a credential-less CORS preflight may be told. */
export async function allActiveOrigins(db: PgExecutor, now: string): Promise<string[][]> {
  const rows = await db
    .select({ origins: apiKeys.allowedOrigins })
    .from(apiKeys)
    .where(and(eq(apiKeys.kind, 'public'), eq(apiKeys.active, true), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now))));
  return rows.map((row) => row.origins);
}
