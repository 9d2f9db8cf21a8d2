import type { LearnedMappingStore } from '../store/store';
import type { Db } from './open-database';
import { deleteLearnedMappings, deleteLearnedOfConfirmer, findLearnedPairs, listLearnedPairs } from './queries/learned-mappings';

// Entries are written with the import that confirmed them (import-store.ts `complete`).
export function createLearnedMappingStore(db: Db): LearnedMappingStore {
  return {
    find: async (accountId, templateId, schemaKeys) => findLearnedPairs(db, accountId, templateId, schemaKeys),
    list: async (accountId, templateId) => listLearnedPairs(db, accountId, templateId),
    delete: async (accountId, scope) => deleteLearnedMappings(db, accountId, scope),
    deleteConfirmer: async (accountId, confirmer) => deleteLearnedOfConfirmer(db, accountId, confirmer),
  };
}
