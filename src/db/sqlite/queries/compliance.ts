import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../open-database';
import { importRows, imports, sessions } from '../schema';
import { hideImports } from './imports';

// Deletions for compliance requests and retention: imports are hidden first (one small statement), then
// emptied a batch of rows at a time by the service (removeHiddenImport), then deleted.

const ofEndUser = (accountId: string, endUserId: string) => and(eq(imports.accountId, accountId), eq(imports.endUserId, endUserId))!;

/** Hides every import (any status) of the end-user in the account for deletion; returns their ids. */
export function hideImportsOfEndUser(db: Db, accountId: string, endUserId: string): string[] {
  return hideImports(db, ofEndUser(accountId, endUserId));
}

export function deleteSessionsOfEndUser(db: Db, accountId: string, endUserId: string): number {
  return db.delete(sessions).where(and(eq(sessions.accountId, accountId), eq(sessions.endUserId, endUserId))).run().changes;
}

/** Hides a complete import of the account for deletion; false when there is none. */
export function hideCompleteImport(db: Db, accountId: string, id: string): boolean {
  return hideImports(db, and(eq(imports.accountId, accountId), eq(imports.id, id), eq(imports.status, 'complete'))!).length === 1;
}

/** Hides up to `limit` complete imports created before `cutoff`, oldest first; returns their ids. */
export function hideExpiredImports(db: Db, cutoff: string, limit: number): string[] {
  const ids = db
    .select({ id: imports.id })
    .from(imports)
    .where(and(eq(imports.status, 'complete'), lt(imports.createdAt, cutoff)))
    .orderBy(asc(imports.createdAt))
    .limit(limit);
  return hideImports(db, inArray(imports.id, ids));
}

/** Deletes up to `limit` rows of the import; returns how many. */
export function deleteRowsOfImport(db: Db, importId: string, limit: number): number {
  const batch = db.select({ rowIndex: importRows.rowIndex }).from(importRows).where(eq(importRows.importId, importId)).limit(limit);
  return db
    .delete(importRows)
    .where(and(eq(importRows.importId, importId), inArray(importRows.rowIndex, batch)))
    .run().changes;
}
