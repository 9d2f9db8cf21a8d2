import type { ImportListRow, ImportViewRow, StoredRow } from '../db/store';
import type { ImportRowsPage, StoredRowsPage } from '../services/imports';

// The read routes' answers as JSON text, in the shapes of services/imports/views.ts (toListItem, toDetail):
// meta, file, cellStats and the rows are JSON the service wrote itself, spliced in as stored instead of
// parsed and serialised again (most of a detail or a page's cost). test/imports/read-json.test.ts holds both
// renderings equal.

/** A page of imports (GET /v1/imports). */
export function importPageJson(page: ImportRowsPage): string {
  return `{"data":[${page.rows.map(listItemJson).join(',')}],"pagination":${JSON.stringify(page.pagination)}}`;
}

/** toListItem's JSON text. */
export function listItemJson(row: ImportListRow): string {
  return `{${headJson(row)},"fileId":${text(row.fileId)},"file":${row.file ?? 'null'},"meta":${row.meta},"endUserId":${text(row.endUserId)},"endUserEmail":${text(row.endUserEmail)},"importedFrom":${text(row.importedFrom)},"rowCount":${row.rowCount}${row.changes ? `,"changes":${row.changes}` : ''}}`;
}

/** toDetail's JSON text (GET /v1/imports/{id}). */
export function detailJson(row: ImportViewRow): string {
  return `{${headJson(row)},"meta":${row.meta},"file":${row.file ?? 'null'},"cellStats":${row.cellStats},"endUserId":${text(row.endUserId)},"endUserEmail":${text(row.endUserEmail)},"endUserIp":${text(row.endUserIp)},"importedFrom":${text(row.importedFrom)},"sessionJti":${text(row.sessionJti)},"reviewedAt":${text(row.reviewedAt)},"reviewReason":${text(row.reviewReason)}${row.mode ? `,"mode":"${row.mode}"` : ''}${row.changes ? `,"changes":${row.changes}` : ''}}`;
}

/** A rows page (GET /v1/imports/{id}/rows): each row's stored JSON spliced in as it is. */
export function rowPageJson({ rows, pagination }: StoredRowsPage): string {
  let data = '';
  for (let i = 0; i < rows.length; i++) {
    const row: StoredRow & { previous?: string } = rows[i]!;
    data += `${i === 0 ? '' : ','}{"rowIndex":${row.rowIndex},"data":${row.data}${row.errors ? `,"errors":${row.errors}` : ''}${row.previous ? `,"previous":${row.previous}` : ''}}`;
  }
  return `{"data":[${data}],"pagination":${JSON.stringify(pagination)}}`;
}

function headJson(row: Pick<ImportListRow, 'id' | 'templateId' | 'reviewStatus' | 'createdAt' | 'updatedAt'>): string {
  return `"id":${text(row.id)},"templateId":${text(row.templateId)},"status":"${row.reviewStatus}","createdAt":${text(row.createdAt)},"updatedAt":${text(row.updatedAt)}`;
}

// Ids and timestamps need no escaping: a quick test spares them JSON.stringify (a list page holds 800 such strings).
const PLAIN_TEXT = /^[\w.:+-]*$/;
const text = (value: string | null) => (value === null ? 'null' : PLAIN_TEXT.test(value) ? `"${value}"` : JSON.stringify(value));
