import type { DatasetStore } from '../store';
import { WRITE_TRANSACTION, type Db } from './open-database';
import { changedRows, countRecords, findRecords, missingKeys, pageRecords } from './queries/datasets';
import { applyDataset } from './queries/dataset-apply';
import { writeWebhookEvent } from './queries/webhooks';

/** The datasets of keyed templates. An apply is one synchronous write transaction: nothing interleaves. */
export function createDatasetStore(db: Db): DatasetStore {
  return {
    apply: async (input, event) =>
      db.transaction(() => {
        const changes = applyDataset(db, input);
        const draft = event?.(changes);
        if (draft) writeWebhookEvent(db.$client, draft);
        return changes;
      }, WRITE_TRANSACTION),
    records: async (ref, keys) => findRecords(db, ref, keys),
    count: async (ref) => countRecords(db, ref),
    page: async (ref, query) => pageRecords(db, ref, query),
    changedRows: async (importId, change, after, limit) => changedRows(db, importId, change, after, limit),
    missing: async (ref, importId, mode, query) => missingKeys(db, ref, importId, mode, query),
  };
}
