import { randomUUID } from 'node:crypto';
import type { Store } from '../store/store';
import { copyDatabase, finishCopy } from './backup';
import { createImportStores } from './import-store';
import type { Storage } from './open-database';
import { createKeyedStores } from './keyed-store';
import { createLearnedMappingStore } from './learned-mapping-store';
import { createDatasetStore } from './dataset-store';
import { createUploadStore } from './upload-store';
import { createWebhookStore } from './webhook-store';
import { createProcessNotices, createProcessRateLimits } from './process-local';
import { releaseLock, tryAcquireLock } from './queries/locks';

/**
 * The store over one SQLite connection. Every method runs its statements synchronously (better-sqlite3) and
 * answers a settled promise; an atomic method is one synchronous transaction, so nothing can interleave.
 */
export function createSqliteStore(storage: Pick<Storage, 'db' | 'sqlite' | 'writePause' | 'space'>, nodeId: string = randomUUID()): Store {
  const { db, sqlite, space } = storage;
  const importStores = createImportStores(db, sqlite, storage.writePause);
  space.guardDeletions(importStores);
  return {
    nodeId,
    ...createKeyedStores(db),
    ...importStores,
    learnedMappings: createLearnedMappingStore(db),
    datasets: createDatasetStore(db),
    webhooks: createWebhookStore(sqlite),
    uploads: createUploadStore(db),
    locks: {
      tryAcquire: async (name, owner, now, until) => tryAcquireLock(db, name, owner, now, until),
      release: async (name, owner) => releaseLock(db, name, owner),
    },
    rateLimits: createProcessRateLimits(),
    notices: createProcessNotices(),
    admin: {
      async ping() {
        sqlite.prepare('SELECT 1').get();
      },
      noteFull: () => space.noteFull(),
      full: () => space.full(),
      async backup(file) {
        const pages = await copyDatabase(sqlite, file);
        return { pages, check: finishCopy(sqlite, file) };
      },
    },
  };
}
