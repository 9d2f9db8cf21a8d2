import type { DatasetApply, DatasetMode, DatasetRef, ImportRow } from '../../db/store';

/** How an import into a keyed template is applied to its dataset: the template's key and the import's mode. */
export interface KeyedApply {
  primaryKey: readonly string[];
  mode: DatasetMode;
}

/** The dataset an import belongs to: its template's records in its environment. */
export function datasetOf(row: Pick<ImportRow, 'accountId' | 'templateId' | 'environmentId'>): DatasetRef {
  return { accountId: row.accountId, templateId: row.templateId, environmentId: row.environmentId };
}

/**
 * What the store needs to apply a stored import (DatasetStore.apply, or the completion that applies it):
 * for creation and for an import applied later (an approval), which passes the time it applies it.
 */
export function datasetApply(row: Pick<ImportRow, 'id' | 'accountId' | 'templateId' | 'environmentId' | 'endUserId'>, keyed: KeyedApply, at: string): DatasetApply {
  return { dataset: datasetOf(row), importId: row.id, primaryKey: keyed.primaryKey, mode: keyed.mode, endUserId: row.endUserId, at };
}
