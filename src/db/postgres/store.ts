import { randomUUID } from 'node:crypto';
import type { Store } from '../store/store';
import { createImportStores } from './import-store';
import { createKeyedStores } from './keyed-store';
import { createLearnedMappingStore } from './learned-mapping-store';
import type { PgStorage } from './open-database';

/**
 * The store over a pool of PostgreSQL connections. An atomic method is one transaction on one pooled client
 * (it may span awaits: nothing else runs on that client meanwhile). No online file copy: `pg_dump` backs up.
 */
export function createPostgresStore(storage: Pick<PgStorage, 'db' | 'pool'>, nodeId: string = randomUUID()): Store {
  const { db, pool } = storage;
  return {
    nodeId,
    ...createKeyedStores(db),
    ...createImportStores(db, pool),
    learnedMappings: createLearnedMappingStore(db),
    admin: {
      async ping() {
        await pool.query('SELECT 1');
      },
    },
  };
}
