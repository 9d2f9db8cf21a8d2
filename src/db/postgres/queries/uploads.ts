import { and, eq, inArray, isNotNull, lt, notExists, or, sql, sum } from 'drizzle-orm';
import type { UploadEnd, UploadRow } from '../../store';
import type { PgExecutor } from '../open-database';
import { imports, uploads } from '../schema';

const UNFINISHED = ['receiving', 'processing'] as const;

/** The bytes of the account's unfinished uploads. */
export async function unfinishedBytes(db: PgExecutor, accountId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sum(uploads.sizeBytes) })
    .from(uploads)
    .where(and(eq(uploads.accountId, accountId), inArray(uploads.status, UNFINISHED)));
  return Number(row?.bytes ?? 0);
}

export async function insertUpload(db: PgExecutor, row: UploadRow): Promise<void> {
  await db.insert(uploads).values(row);
}

export async function findUpload(db: PgExecutor, id: string): Promise<UploadRow | undefined> {
  const [row] = await db.select().from(uploads).where(eq(uploads.id, id));
  return row;
}

export async function findUploadByImport(db: PgExecutor, accountId: string, importId: string): Promise<UploadRow | undefined> {
  const [row] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.accountId, accountId), eq(uploads.importId, importId), eq(uploads.status, 'completed')));
  return row;
}

/** One statement: receiving, or processing with its lease run out (or already `node`'s). */
export async function claimUpload(db: PgExecutor, id: string, node: string, now: string, until: string): Promise<boolean> {
  return (
    (
      await db
        .update(uploads)
        .set({ status: 'processing', leaseNode: node, leaseUntil: until, updatedAt: now })
        .where(
          and(
            eq(uploads.id, id),
            or(eq(uploads.status, 'receiving'), and(eq(uploads.status, 'processing'), or(lt(uploads.leaseUntil, now), eq(uploads.leaseNode, node)))),
          ),
        )
        .returning({ id: uploads.id })
    ).length === 1
  );
}

export async function progressUpload(db: PgExecutor, id: string, node: string, rows: number, until: string): Promise<boolean> {
  return (
    (
      await db
        .update(uploads)
        .set({ rowsProcessed: rows, leaseUntil: until })
        .where(and(eq(uploads.id, id), eq(uploads.status, 'processing'), eq(uploads.leaseNode, node)))
        .returning({ id: uploads.id })
    ).length === 1
  );
}

export async function finishUpload(
  db: PgExecutor,
  id: string,
  node: string,
  end: UploadEnd,
): Promise<boolean> {
  return (
    (
      await db
        .update(uploads)
        .set({ status: end.status, importId: end.importId, error: end.error, rowsProcessed: end.rows, leaseNode: null, leaseUntil: null, updatedAt: end.now })
        .where(and(eq(uploads.id, id), eq(uploads.status, 'processing'), eq(uploads.leaseNode, node)))
        .returning({ id: uploads.id })
    ).length === 1
  );
}

export async function dueUploads(db: PgExecutor, now: string, limit: number): Promise<{ resume: string[]; expired: string[] }> {
  const resume = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.status, 'processing'), lt(uploads.leaseUntil, now)))
    .limit(limit);
  const expired = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(inArray(uploads.status, ['receiving', 'failed']), lt(uploads.expiresAt, now)))
    .limit(limit);
  return { resume: resume.map((row) => row.id), expired: expired.map((row) => row.id) };
}

export async function orphanedUploads(db: PgExecutor, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(
      and(
        eq(uploads.status, 'completed'),
        isNotNull(uploads.importId),
        notExists(db.select({ one: sql`1` }).from(imports).where(eq(imports.id, uploads.importId))),
      ),
    )
    .limit(limit);
  return rows.map((row) => row.id);
}

export async function uploadsOfEndUser(db: PgExecutor, accountId: string, endUserId: string): Promise<string[]> {
  const rows = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.accountId, accountId), eq(uploads.endUserId, endUserId), inArray(uploads.status, ['receiving', 'processing', 'failed'])));
  return rows.map((row) => row.id);
}

export async function uploadOfImport(db: PgExecutor, importId: string): Promise<string | undefined> {
  const [row] = await db.select({ id: uploads.id }).from(uploads).where(eq(uploads.importId, importId)).limit(1);
  return row?.id;
}

export async function deleteUpload(db: PgExecutor, id: string): Promise<void> {
  await db.delete(uploads).where(eq(uploads.id, id));
}

export async function importOfUpload(db: PgExecutor, accountId: string, uploadId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: imports.id })
    .from(imports)
    .where(and(eq(imports.accountId, accountId), eq(imports.fileId, uploadId), eq(imports.status, 'complete')))
    .limit(1);
  return row?.id;
}
