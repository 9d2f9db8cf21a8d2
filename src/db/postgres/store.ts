import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { PoolFigures, Store } from '../store/store';
import { createImportStores } from './import-store';
import { createKeyedStores } from './keyed-store';
import { createLearnedMappingStore } from './learned-mapping-store';
import { createDatasetStore } from './dataset-store';
import { createPgNotices } from './notices';
import { releaseLock, tryAcquireLock } from './queries/locks';
import { createPgRateLimits } from './queries/rate-limits';
import type { PgStorage } from './open-database';
import { createUploadStore } from './upload-store';
import { createWebhookStore } from './webhook-store';

/**
 * The store over a pool of PostgreSQL connections. An atomic method is one transaction on one pooled client
 * (it may span awaits: nothing else runs on that client meanwhile). No online file copy: `pg_dump` backs up.
 */
export function createPostgresStore(storage: Pick<PgStorage, 'db' | 'pool' | 'writerPool'>, nodeId: string = randomUUID()): Store {
  const { db, pool, writerPool } = storage;
  // Nothing to probe without writing where the server is short of room (its WAL, a tablespace): a refusal for
  // want of space is believed for FULL_FOR_MS, then the next write says whether it still holds.
  let fullUntil = 0;
  return {
    nodeId,
    ...createKeyedStores(db, pool),
    ...createImportStores(db, pool, writerPool),
    learnedMappings: createLearnedMappingStore(db),
    datasets: createDatasetStore(db),
    webhooks: createWebhookStore(db),
    uploads: createUploadStore(db),
    locks: {
      tryAcquire: (name, owner, now, until) => tryAcquireLock(db, name, owner, now, until),
      release: (name, owner) => releaseLock(db, name, owner),
    },
    rateLimits: createPgRateLimits(db),
    notices: createPgNotices(pool),
    admin: {
      async ping() {
        await pool.query('SELECT 1');
      },
      noteFull() {
        fullUntil = performance.now() + FULL_FOR_MS;
      },
      full: async () => performance.now() < fullUntil,
      pools: () => [poolFigures('queries', pool), poolFigures('writers', writerPool)],
    },
  };
}

const FULL_FOR_MS = 30_000;

function poolFigures(name: string, pool: pg.Pool): PoolFigures {
  return { pool: name, max: pool.options.max, busy: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount };
}
