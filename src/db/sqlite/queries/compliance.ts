import { and, asc, count, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../open-database';
import { importRows, imports, sessions } from '../schema';

// Deletions for compliance requests and retention. import_rows go with their import (ON DELETE CASCADE);
// the row counts are taken first, inside the caller's transaction, so the answer matches what was removed.

const ofEndUser = (accountId: string, endUserId: string) => and(eq(imports.accountId, accountId), eq(imports.endUserId, endUserId));

export function countRowsOfEndUser(db: Db, accountId: string, endUserId: string): number {
  const ids = db.select({ id: imports.id }).from(imports).where(ofEndUser(accountId, endUserId));
  return db.select({ n: count() }).from(importRows).where(inArray(importRows.importId, ids)).get()!.n;
}

/** Deletes every import (any status) of the end-user in the account; returns how many. */
export function deleteImportsOfEndUser(db: Db, accountId: string, endUserId: string): number {
  return db.delete(imports).where(ofEndUser(accountId, endUserId)).run().changes;
}

export function deleteSessionsOfEndUser(db: Db, accountId: string, endUserId: string): number {
  return db.delete(sessions).where(and(eq(sessions.accountId, accountId), eq(sessions.endUserId, endUserId))).run().changes;
}

/** A complete import of the account, with its stored row count. */
export function findCompleteImport(db: Db, accountId: string, id: string): { id: string; rowCount: number } | undefined {
  return db
    .select({ id: imports.id, rowCount: imports.rowCount })
    .from(imports)
    .where(and(eq(imports.accountId, accountId), eq(imports.id, id), eq(imports.status, 'complete')))
    .get();
}

export function countRowsOfImport(db: Db, importId: string): number {
  return db.select({ n: count() }).from(importRows).where(eq(importRows.importId, importId)).get()!.n;
}

/** Hides up to `limit` complete imports created before `cutoff` (status 'writing', so no reader sees them). */
export function hideExpiredImports(db: Db, cutoff: string, limit: number, pid: number): string[] {
  const ids = db
    .select({ id: imports.id })
    .from(imports)
    .where(and(eq(imports.status, 'complete'), lt(imports.createdAt, cutoff)))
    .orderBy(asc(imports.createdAt))
    .limit(limit)
    .all()
    .map((row) => row.id);
  if (ids.length > 0) db.update(imports).set({ status: 'writing', writerPid: pid }).where(inArray(imports.id, ids)).run();
  return ids;
}

/** Deletes up to `limit` rows of the import; returns how many. */
export function deleteRowsOfImport(db: Db, importId: string, limit: number): number {
  const batch = db.select({ rowIndex: importRows.rowIndex }).from(importRows).where(eq(importRows.importId, importId)).limit(limit);
  return db
    .delete(importRows)
    .where(and(eq(importRows.importId, importId), inArray(importRows.rowIndex, batch)))
    .run().changes;
}
