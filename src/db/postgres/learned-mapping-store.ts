import type { LearnedMappingStore } from '../store/store';
import type { PgDb } from './open-database';
import { deleteLearnedMappings, findLearnedMappings, listLearnedMappingsOfAccount, trimLearnedMappings, upsertLearnedMappings } from './queries/learned-mappings';

export function createLearnedMappingStore(db: PgDb): LearnedMappingStore {
  return {
    remember: (accountId, rows, keep) =>
      db.transaction(async (tx) => {
        await upsertLearnedMappings(tx, rows);
        await trimLearnedMappings(tx, accountId, keep);
      }),
    find: (accountId, schemaKeys) => findLearnedMappings(db, accountId, schemaKeys),
    list: (accountId) => listLearnedMappingsOfAccount(db, accountId),
    delete: (accountId, schemaKey) => deleteLearnedMappings(db, accountId, schemaKey),
  };
}
