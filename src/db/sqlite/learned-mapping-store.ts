import type { LearnedMappingStore } from '../store/store';
import { WRITE_TRANSACTION, type Db } from './open-database';
import { deleteLearnedMappings, findLearnedMappings, listLearnedMappingsOfAccount, trimLearnedMappings, upsertLearnedMappings } from './queries/learned-mappings';

export function createLearnedMappingStore(db: Db): LearnedMappingStore {
  return {
    remember: async (accountId, rows, keep) =>
      db.transaction(() => {
        upsertLearnedMappings(db, rows);
        trimLearnedMappings(db, accountId, keep);
      }, WRITE_TRANSACTION),
    find: async (accountId, schemaKeys) => findLearnedMappings(db, accountId, schemaKeys),
    list: async (accountId) => listLearnedMappingsOfAccount(db, accountId),
    delete: async (accountId, schemaKey) => deleteLearnedMappings(db, accountId, schemaKey),
  };
}
