import { sql } from 'drizzle-orm';
import type { UploadStore } from '../store/store';
import type { PgDb } from './open-database';
import * as q from './queries/uploads';

/** The repository of resumable uploads. */
export function createUploadStore(db: PgDb): UploadStore {
  return {
    insert: (row, quota) =>
      db.transaction(async (tx) => {
        // The account's row locked: two uploads of one account created at once cannot both pass the quota.
        await tx.execute(sql`SELECT id FROM accounts WHERE id = ${row.accountId} FOR UPDATE`);
        if (quota > 0 && (await q.unfinishedBytes(tx, row.accountId)) + row.sizeBytes > quota) return false;
        await q.insertUpload(tx, row);
        return true;
      }),
    find: (id) => q.findUpload(db, id),
    claim: (id, node, now, until) => q.claimUpload(db, id, node, now, until),
    progress: (id, node, rows, until) => q.progressUpload(db, id, node, rows, until),
    finish: (id, node, end) => q.finishUpload(db, id, node, end),
    due: (now, limit) => q.dueUploads(db, now, limit),
    orphaned: (limit) => q.orphanedUploads(db, limit),
    findByImport: (accountId, importId) => q.findUploadByImport(db, accountId, importId),
    importOf: (accountId, uploadId) => q.importOfUpload(db, accountId, uploadId),
    ofEndUser: (accountId, endUserId) => q.uploadsOfEndUser(db, accountId, endUserId),
    ofImport: (importId) => q.uploadOfImport(db, importId),
    delete: (id) => q.deleteUpload(db, id),
  };
}
