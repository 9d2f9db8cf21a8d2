import type { LearnedMappingStore } from '../store/store';
import type { PgDb } from './open-database';
import { deleteLearnedMappings, deleteLearnedOfConfirmer, findLearnedPairs, listLearnedPairs } from './queries/learned-mappings';

// Entries are written with the import that confirmed them (import-store.ts `complete`).
export function createLearnedMappingStore(db: PgDb): LearnedMappingStore {
  return {
    find: (accountId, templateId, schemaKeys) => findLearnedPairs(db, accountId, templateId, schemaKeys),
    list: (accountId, templateId) => listLearnedPairs(db, accountId, templateId),
    delete: (accountId, scope) => db.transaction((tx) => deleteLearnedMappings(tx, accountId, scope)),
    deleteConfirmer: (accountId, confirmer) => db.transaction((tx) => deleteLearnedOfConfirmer(tx, accountId, confirmer)),
  };
}
