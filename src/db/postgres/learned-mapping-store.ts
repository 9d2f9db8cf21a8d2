import type { LearnedMappingStore } from '../store/store';
import type { PgDb } from './open-database';
import { deleteLearnedMappings, findLearnedMappings, listLearnedMappingsOfAccount } from './queries/learned-mappings';

// Entries are written with the import that confirmed them (import-store.ts `complete`).
export function createLearnedMappingStore(db: PgDb): LearnedMappingStore {
  return {
    find: (accountId, schemaKeys) => findLearnedMappings(db, accountId, schemaKeys),
    list: (accountId) => listLearnedMappingsOfAccount(db, accountId),
    delete: (accountId, schemaKey) => db.transaction((tx) => deleteLearnedMappings(tx, accountId, schemaKey)),
  };
}
