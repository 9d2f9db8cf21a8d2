import type { ImportDetailRow, ImportListRow, ImportViewRow, StoredRow } from '../../db/store';
import { parseJsonObject } from '../json';
import type { Pagination } from '../pagination';
import type { CellStats, ImportDetail, ImportListItem } from './schemas';

// Stored import -> the response shapes, each with exactly the members the spec lists for it.

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
  };
}

// The same shapes as JSON text, for the read routes: meta, file and cellStats are JSON the service wrote
// itself, spliced in as stored instead of parsed and serialised again (most of a detail or list page's cost).

/** toListItem's JSON text. */
export function listItemJson(row: ImportListRow): string {
  return `{${headJson(row)},"fileId":${text(row.fileId)},"file":${row.file ?? 'null'},"meta":${row.meta},"endUserId":${text(row.endUserId)},"endUserEmail":${text(row.endUserEmail)},"importedFrom":${text(row.importedFrom)},"rowCount":${row.rowCount}}`;
}

/** toDetail's JSON text. */
export function detailJson(row: ImportDetailRow): string {
  return `{${headJson(row)},"meta":${row.meta},"file":${row.file ?? 'null'},"cellStats":${row.cellStats},"endUserId":${text(row.endUserId)},"endUserEmail":${text(row.endUserEmail)},"endUserIp":${text(row.endUserIp)},"importedFrom":${text(row.importedFrom)},"sessionJti":${text(row.sessionJti)}}`;
}

// The SQLite read cache hands back the same view object until the database changes: its detail is rendered
// and encoded once, not on every read (building, measuring and encoding it cost a few µs of each detail read).
const detailBodies = new WeakMap<ImportDetailRow, readonly Uint8Array[]>();

/** toDetail's JSON as UTF-8 bytes, kept with the view object it was rendered from. */
export function detailBytes(row: ImportDetailRow): readonly Uint8Array[] {
  let body = detailBodies.get(row);
  if (body === undefined) {
    body = [Buffer.from(detailJson(row))];
    detailBodies.set(row, body);
  }
  return body;
}

function headJson(row: Pick<ImportListRow, 'id' | 'templateId' | 'createdAt' | 'updatedAt'>): string {
  return `"id":${text(row.id)},"templateId":${text(row.templateId)},"createdAt":${text(row.createdAt)},"updatedAt":${text(row.updatedAt)}`;
}

// Ids and timestamps need no escaping: a quick test spares them JSON.stringify (a list page holds 800 such strings).
const PLAIN_TEXT = /^[\w.:+-]*$/;
const text = (value: string | null) => (value === null ? 'null' : PLAIN_TEXT.test(value) ? `"${value}"` : JSON.stringify(value));

/**
 * A rows page as JSON text: each row's stored JSON is spliced in as it is, so a page costs no parse and no
 * re-serialisation of the row data.
 */
export function rowPageJson(rows: readonly StoredRow[], pagination: Pagination<Record<string, never>>): string {
  let data = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    data += `${i === 0 ? '' : ','}{"rowIndex":${row.rowIndex},"data":${row.data}}`;
  }
  return `{"data":[${data}],"pagination":${JSON.stringify(pagination)}}`;
}

/** A JSON answer: text, or UTF-8 byte pieces sent one after the other. */
export type JsonBody = string | readonly Uint8Array[];

const PAGE_START = Buffer.from('{"data":[');

/** A page whose `data` items the store rendered (RowJsonPage, ImportJsonPage), as bytes: the items' JSON is sent as the store gave it. */
export function jsonPageBytes(json: Uint8Array, pagination: Pagination<object>): readonly Uint8Array[] {
  return [PAGE_START, json, Buffer.from(`],"pagination":${JSON.stringify(pagination)}}`)];
}

/** The members every shape of an import starts with. */
function head(row: ImportListRow) {
  return { id: row.id, templateId: row.templateId, createdAt: row.createdAt, updatedAt: row.updatedAt };
}
