import type { ImportListRow, ImportViewRow } from '../../db/store';
import { parseJsonObject } from '../json';
import type { CellStats, DatasetChanges, ImportDetail, ImportListItem } from './schemas';

// Stored import -> the response shapes, each with exactly the members the spec lists for it (the HTTP read
// routes write the same shapes as text, with the stored JSON spliced in: http/import-json.ts).

/** The list and create shape. */
export function toListItem(row: ImportListRow): ImportListItem {
  return {
    ...head(row),
    fileId: row.fileId,
    file: parseJsonObject(row.file),
    meta: parseJsonObject(row.meta),
    endUserId: row.endUserId,
    endUserEmail: row.endUserEmail,
    importedFrom: row.importedFrom,
    rowCount: row.rowCount,
    ...changesOf(row),
  };
}

/** The detail shape. */
export function toDetail(row: ImportViewRow): ImportDetail {
  return {
    ...head(row),
    meta: parseJsonObject(row.meta),
    file: parseJsonObject(row.file),
    cellStats: JSON.parse(row.cellStats) as CellStats,
    endUserId: row.endUserId,
    endUserEmail: row.endUserEmail,
    endUserIp: row.endUserIp,
    importedFrom: row.importedFrom,
    sessionJti: row.sessionJti,
    reviewedAt: row.reviewedAt,
    reviewReason: row.reviewReason,
    ...(row.mode ? { mode: row.mode } : {}),
    ...changesOf(row),
  };
}

/** `changes`, for an import into a keyed template only. */
function changesOf(row: Pick<ImportListRow, 'changes'>): { changes?: DatasetChanges } {
  return row.changes ? { changes: JSON.parse(row.changes) as DatasetChanges } : {};
}

/** The members every shape of an import starts with. */
function head(row: ImportListRow) {
  return { id: row.id, templateId: row.templateId, status: row.reviewStatus, createdAt: row.createdAt, updatedAt: row.updatedAt };
}
