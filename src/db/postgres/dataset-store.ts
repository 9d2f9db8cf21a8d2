import type { DatasetStore } from '../store';
import type { PgDb } from './open-database';
import { applyDataset, changedRows, countRecords, findRecords, missingKeys, pageRecords } from './queries/datasets';
import { writeWebhookEvent } from './queries/webhooks';

/** The datasets of keyed templates. An apply is one transaction holding its dataset's advisory lock. */
export function createDatasetStore(db: PgDb): DatasetStore {
  return {
    apply: (input, event) =>
      db.transaction(async (tx) => {
        const changes = await applyDataset(tx, input);
        const draft = event?.(changes);
        if (draft) await writeWebhookEvent(tx, draft);
        return changes;
      }),
    records: (ref, keys) => findRecords(db, ref, keys),
    count: (ref) => countRecords(db, ref),
    page: (ref, query) => pageRecords(db, ref, query),
    changedRows: (importId, change, after, limit) => changedRows(db, importId, change, after, limit),
    missing: (ref, importId, mode, query) => missingKeys(db, ref, importId, mode, query),
  };
}
