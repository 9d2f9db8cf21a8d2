import { and, eq, inArray, isNotNull, lt, notExists, or, sql, sum } from 'drizzle-orm';
import type { UploadEnd, UploadRow } from '../../store';
import type { Db } from '../open-database';
import { imports, uploads } from '../schema';

const UNFINISHED = ['receiving', 'processing'] as const;

/** The bytes of the account's unfinished uploads. */
export function unfinishedBytes(db: Db, accountId: string): number {
  const [row] = db
    .select({ bytes: sum(uploads.sizeBytes) })
    .from(uploads)
    .where(and(eq(uploads.accountId, accountId), inArray(uploads.status, UNFINISHED)))
    .all();
  return Number(row?.bytes ?? 0);
}

export function insertUpload(db: Db, row: UploadRow): void {
  db.insert(uploads).values(row).run();
}

export function findUpload(db: Db, id: string): UploadRow | undefined {
  return db.select().from(uploads).where(eq(uploads.id, id)).get();
}

export function findUploadByImport(db: Db, accountId: string, importId: string): UploadRow | undefined {
  return db
    .select()
    .from(uploads)
    .where(and(eq(uploads.accountId, accountId), eq(uploads.importId, importId), eq(uploads.status, 'completed')))
    .get();
}

/** One statement: receiving, or processing with its lease run out (or already `node`'s). */
export function claimUpload(db: Db, id: string, node: string, now: string, until: string): boolean {
  return (
    db
      .update(uploads)
      .set({ status: 'processing', leaseNode: node, leaseUntil: until, updatedAt: now })
      .where(
        and(
          eq(uploads.id, id),
          or(eq(uploads.status, 'receiving'), and(eq(uploads.status, 'processing'), or(lt(uploads.leaseUntil, now), eq(uploads.leaseNode, node)))),
        ),
      )
      .run().changes === 1
  );
}

export function progressUpload(db: Db, id: string, node: string, rows: number, until: string): boolean {
  return (
    db
      .update(uploads)
      .set({ rowsProcessed: rows, leaseUntil: until })
      .where(and(eq(uploads.id, id), eq(uploads.status, 'processing'), eq(uploads.leaseNode, node)))
      .run().changes === 1
  );
}

export function finishUpload(
  db: Db,
  id: string,
  node: string,
  end: UploadEnd,
): boolean {
  return (
    db
      .update(uploads)
      .set({ status: end.status, importId: end.importId, error: end.error, rowsProcessed: end.rows, leaseNode: null, leaseUntil: null, updatedAt: end.now })
      .where(and(eq(uploads.id, id), eq(uploads.status, 'processing'), eq(uploads.leaseNode, node)))
      .run().changes === 1
  );
}

export function dueUploads(db: Db, now: string, limit: number): { resume: string[]; expired: string[] } {
  const resume = db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.status, 'processing'), lt(uploads.leaseUntil, now)))
    .limit(limit)
    .all();
  const expired = db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(inArray(uploads.status, ['receiving', 'failed']), lt(uploads.expiresAt, now)))
    .limit(limit)
    .all();
  return { resume: resume.map((row) => row.id), expired: expired.map((row) => row.id) };
}

export function orphanedUploads(db: Db, limit: number): string[] {
  return db
    .select({ id: uploads.id })
    .from(uploads)
    .where(
      and(
        eq(uploads.status, 'completed'),
        isNotNull(uploads.importId),
        notExists(db.select({ one: sql`1` }).from(imports).where(eq(imports.id, uploads.importId))),
      ),
    )
    .limit(limit)
    .all()
    .map((row) => row.id);
}

export function uploadsOfEndUser(db: Db, accountId: string, endUserId: string): string[] {
  return db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.accountId, accountId), eq(uploads.endUserId, endUserId), inArray(uploads.status, ['receiving', 'processing', 'failed'])))
    .all()
    .map((row) => row.id);
}

export function uploadOfImport(db: Db, importId: string): string | undefined {
  return db.select({ id: uploads.id }).from(uploads).where(eq(uploads.importId, importId)).get()?.id;
}

export function deleteUpload(db: Db, id: string): void {
  db.delete(uploads).where(eq(uploads.id, id)).run();
}

export function importOfUpload(db: Db, accountId: string, uploadId: string): string | undefined {
  const [row] = db
    .select({ id: imports.id })
    .from(imports)
    .where(and(eq(imports.accountId, accountId), eq(imports.fileId, uploadId), eq(imports.status, 'complete')))
    .limit(1)
    .all();
  return row?.id;
}
