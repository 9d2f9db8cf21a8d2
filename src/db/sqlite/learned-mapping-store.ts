import type { LearnedMappingStore } from '../store/store';
import type { Db } from './open-database';
import { deleteLearnedMappings, findLearnedMappings, listLearnedMappingsOfAccount } from './queries/learned-mappings';

// Entries are written with the import that confirmed them (import-store.ts `complete`).
export function createLearnedMappingStore(db: Db): LearnedMappingStore {
  return {
    find: async (accountId, schemaKeys) => findLearnedMappings(db, accountId, schemaKeys),
    list: async (accountId) => listLearnedMappingsOfAccount(db, accountId),
    delete: async (accountId, schemaKey) => deleteLearnedMappings(db, accountId, schemaKey),
  };
}
