import { and, eq, inArray } from 'drizzle-orm';
import type { PgExecutor } from '../open-database';
import { importRows, imports, sessions } from '../schema';
import { hideImports } from './imports';

// Deletions for compliance requests and retention: imports are hidden first (one small statement), then
// emptied a batch of rows at a time by the service, then deleted.

export async function hideImportsOfEndUser(db: PgExecutor, accountId: string, endUserId: string): Promise<string[]> {
  return await hideImports(db, and(eq(imports.accountId, accountId), eq(imports.endUserId, endUserId))!);
}

export async function deleteSessionsOfEndUser(db: PgExecutor, accountId: string, endUserId: string): Promise<number> {
  return (await db.delete(sessions).where(and(eq(sessions.accountId, accountId), eq(sessions.endUserId, endUserId)))).rowCount ?? 0;
}

export async function hideCompleteImport(db: PgExecutor, accountId: string, id: string): Promise<boolean> {
  return (await hideImports(db, and(eq(imports.accountId, accountId), eq(imports.id, id), eq(imports.status, 'complete'))!)).length === 1;
}

/** Deletes up to `limit` rows of the import; returns how many. */
export async function deleteRowsOfImport(db: PgExecutor, importId: string, limit: number): Promise<number> {
  const batch = db.select({ rowIndex: importRows.rowIndex }).from(importRows).where(eq(importRows.importId, importId)).limit(limit);
  return (await db.delete(importRows).where(and(eq(importRows.importId, importId), inArray(importRows.rowIndex, batch)))).rowCount ?? 0;
}
