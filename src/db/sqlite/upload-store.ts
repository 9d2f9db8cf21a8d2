import type { UploadStore } from '../store/store';
import { WRITE_TRANSACTION, type Db } from './open-database';
import * as q from './queries/uploads';

/** The repository of resumable uploads. */
export function createUploadStore(db: Db): UploadStore {
  return {
    insert: async (row, quota) =>
      db.transaction(() => {
        if (quota > 0 && q.unfinishedBytes(db, row.accountId) + row.sizeBytes > quota) return false;
        q.insertUpload(db, row);
        return true;
      }, WRITE_TRANSACTION),
    find: async (id) => q.findUpload(db, id),
    claim: async (id, node, now, until) => q.claimUpload(db, id, node, now, until),
    progress: async (id, node, rows, until) => q.progressUpload(db, id, node, rows, until),
    finish: async (id, node, end) => q.finishUpload(db, id, node, end),
    due: async (now, limit) => q.dueUploads(db, now, limit),
    orphaned: async (limit) => q.orphanedUploads(db, limit),
    findByImport: async (accountId, importId) => q.findUploadByImport(db, accountId, importId),
    importOf: async (accountId, uploadId) => q.importOfUpload(db, accountId, uploadId),
    ofEndUser: async (accountId, endUserId) => q.uploadsOfEndUser(db, accountId, endUserId),
    ofImport: async (importId) => q.uploadOfImport(db, importId),
    delete: async (id) => q.deleteUpload(db, id),
  };
}
