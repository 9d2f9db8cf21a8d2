import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../open-database';
import { preparedQuery, rawQuery } from '../prepared';
import { apiKeys, environments, sessions } from '../schema';

export type EnvironmentRow = typeof environments.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

export function findEnvironmentByName(db: Db, accountId: string, name: string): EnvironmentRow | undefined {
  return db
    .select()
    .from(environments)
    .where(and(eq(environments.accountId, accountId), eq(environments.name, name), isNull(environments.deletedAt)))
    .get();
}

const environmentById = preparedQuery((db) => db.select().from(environments).where(eq(environments.id, sql.placeholder('id'))).prepare());

/** An environment by id, deleted or not (an import names its environment for good); prepared: every import completion may read it. */
export function findEnvironmentById(db: Db, id: string): EnvironmentRow | undefined {
  return environmentById(db).get({ id });
}

export function listEnvironmentRows(db: Db, accountId: string): EnvironmentRow[] {
  return db
    .select()
    .from(environments)
    .where(and(eq(environments.accountId, accountId), isNull(environments.deletedAt)))
    .orderBy(asc(environments.createdAt), asc(environments.id)).all();
}

export function insertEnvironment(db: Db, row: EnvironmentRow): void {
  db.insert(environments).values(row).run();
}

export function countLiveEnvironments(db: Db, accountId: string): number {
  return db.select({ n: sql<number>`count(*)` }).from(environments).where(and(eq(environments.accountId, accountId), isNull(environments.deletedAt))).get()!.n;
}

export function setAutoCreateTemplates(db: Db, environmentId: string, allowed: boolean): EnvironmentRow | undefined {
  return db.update(environments).set({ autoCreateTemplates: allowed }).where(and(eq(environments.id, environmentId), isNull(environments.deletedAt))).returning().get();
}

export function insertApiKey(db: Db, row: ApiKeyRow): void {
  db.insert(apiKeys).values(row).run();
}

/** The active keys of the given environments: the current one of each kind, and any rolled one still in its grace period. */
export function activeKeysOf(db: Db, environmentIds: string[]): ApiKeyRow[] {
  if (environmentIds.length === 0) return [];
  return db
    .select()
    .from(apiKeys)
    .where(and(inArray(apiKeys.environmentId, environmentIds), eq(apiKeys.active, true)))
    .all();
}

// Every authenticated request reads its key: a raw statement whose row comes back as an array (better-sqlite3
// builds an object row by naming each column, a third of the read's cost), mapped here.
const apiKeyByHash = rawQuery((sqlite) =>
  sqlite
    .prepare<[string], ApiKeyColumns>(
      `SELECT id, account_id, environment_id, kind, hash, prefix, active, allowed_origins, created_at, last_used_at, deactivated_at, expires_at
       FROM api_keys WHERE hash = ?`,
    )
    .raw(),
);

type Text = string | null;
export type ApiKeyColumns = [string, string, string, ApiKeyRow['kind'], string, string, number, string, string, Text, Text, Text];

export function findApiKeyByHash(db: Db, hash: string): ApiKeyRow | undefined {
  const row = apiKeyByHash(db).get(hash);
  return row && apiKeyOf(row);
}

/** A key from its columns as apiKeyByHash reads them, in that order. */
export function apiKeyOf(row: ApiKeyColumns): ApiKeyRow {
  const [id, accountId, environmentId, kind, hash, prefix, active, allowedOrigins, createdAt, lastUsedAt, deactivatedAt, expiresAt] = row;
  return { id, accountId, environmentId, kind, hash, prefix, active: active === 1, allowedOrigins: JSON.parse(allowedOrigins) as string[], createdAt, lastUsedAt, deactivatedAt, expiresAt };
}

export function setAllowedOrigins(db: Db, keyId: string, origins: string[]): void {
  db.update(apiKeys).set({ allowedOrigins: origins }).where(eq(apiKeys.id, keyId)).run();
}

export function deactivateApiKey(db: Db, keyId: string, at: string): void {
  db.update(apiKeys).set({ active: false, deactivatedAt: at }).where(eq(apiKeys.id, keyId)).run();
}

/** Never moves a time backwards: several nodes touch the same key, each throttling its own writes. */
export function touchApiKey(db: Db, key: Pick<ApiKeyRow, 'id' | 'environmentId'>, at: string): void {
  db.update(apiKeys).set({ lastUsedAt: at }).where(and(eq(apiKeys.id, key.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, at)))).run();
  db.update(environments)
    .set({ lastUsedAt: at })
    .where(and(eq(environments.id, key.environmentId), or(isNull(environments.lastUsedAt), lt(environments.lastUsedAt, at))))
    .run();
}

/**
 * Deletes an environment, atomically: every key deactivated, every session revoked, the row marked deleted
 * (it stays, so its imports still name it). Returns how many keys and sessions were still live.
 */
export function deleteEnvironmentRow(db: Db, environmentId: string, at: string): { keys: number; sessions: number } {
  const keys = db
    .update(apiKeys)
    .set({ active: false, deactivatedAt: at })
    .where(and(eq(apiKeys.environmentId, environmentId), eq(apiKeys.active, true)))
    .run().changes;
  const revoked = db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.environmentId, environmentId), isNull(sessions.revokedAt)))
    .run().changes;
  db.update(environments).set({ deletedAt: at }).where(and(eq(environments.id, environmentId), isNull(environments.deletedAt))).run();
  return { keys, sessions: revoked };
}

export function setKeyExpiry(db: Db, keyId: string, at: string): void {
  db.update(apiKeys).set({ expiresAt: at }).where(eq(apiKeys.id, keyId)).run();
}

/** Every allowed origin of every usable Public Key: what a credential-less CORS preflight may be told. */
export function allActiveOrigins(db: Db, now: string): string[][] {
  return db
    .select({ origins: apiKeys.allowedOrigins })
    .from(apiKeys)
    .where(and(eq(apiKeys.kind, 'public'), eq(apiKeys.active, true), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now))))
    .all()
    .map((row) => row.origins);
}
