import type pg from 'pg';
import type { ApiKeyRow, ImportListRow, KeysetPosition } from '../../store';
import { keyOf, type KeyColumns, KEY_COLUMNS } from './keyed-import';

// The plain authenticated list: the key, its account's newest imports (the keyset page, laterally) and the
// account's counter in one statement, one round trip instead of three (the key, then the page and the count
// side by side). Named so that each connection parses it once; the page after a cursor is a second statement
// rather than a condition on a parameter, which would keep the planner from the index's order.
const KEY_AND_TOTAL = `SELECT k.id, k.account_id, k.environment_id, k.kind, k.hash, k.prefix, k.active, k.allowed_origins, k.created_at,
    k.last_used_at, k.deactivated_at, k.expires_at, (SELECT c.complete FROM import_counts c WHERE c.account_id = k.account_id),
    p.id, p.account_id, p.environment_id, p.template_id, p.status, p.writer_node, p.lease_until, p.meta, p.file, p.file_id,
    p.end_user_id, p.end_user_email, p.end_user_ip, p.imported_from, p.session_jti, p.row_count, p.created_at, p.updated_at
  FROM api_keys k LEFT JOIN LATERAL (SELECT i.id, i.account_id, i.environment_id, i.template_id, i.status, i.writer_node, i.lease_until, i.meta, i.file,
    i.file_id, i.end_user_id, i.end_user_email, i.end_user_ip, i.imported_from, i.session_jti, i.row_count, i.created_at, i.updated_at
    FROM imports i WHERE i.account_id = k.account_id AND i.status = 'complete'`;
const PAGE_END = ` ORDER BY i.created_at DESC, i.id DESC LIMIT $2) p ON true WHERE k.hash = $1`;
const FIRST_PAGE = `${KEY_AND_TOTAL}${PAGE_END}`;
const NEXT_PAGE = `${KEY_AND_TOTAL} AND (i.created_at, i.id) < ($3, $4)${PAGE_END}`;

/** The key of that hash and, when it has one, its account's page of imports and their count; undefined without the key. */
export async function findKeyedImportPage(
  pool: pg.Pool,
  hash: string,
  after: KeysetPosition | undefined,
  limit: number,
): Promise<{ key: ApiKeyRow; rows: ImportListRow[]; total: number } | undefined> {
  const statement = after
    ? { name: 'keyed-import-next-page', text: NEXT_PAGE, values: [hash, limit, after.value, after.id] }
    : { name: 'keyed-import-first-page', text: FIRST_PAGE, values: [hash, limit] };
  const result = await pool.query<unknown[]>({ ...statement, rowMode: 'array' });
  const first = result.rows[0];
  if (!first) return undefined;
  const rows: ImportListRow[] = [];
  for (const row of result.rows) if (row[KEY_COLUMNS + 1] !== null) rows.push(listRowOf(row.slice(KEY_COLUMNS + 1) as ListColumns));
  return { key: keyOf(first.slice(0, KEY_COLUMNS) as KeyColumns), rows, total: (first[KEY_COLUMNS] as number | null) ?? 0 };
}

type Text = string | null;
type ListColumns = [string, string, Text, string, ImportListRow['status'], Text, Text, string, Text, Text, Text, Text, Text, Text, Text, number, string, string];

function listRowOf(row: ListColumns): ImportListRow {
  const [id, accountId, environmentId, templateId, status, writerNode, leaseUntil, meta, file, fileId, endUserId, endUserEmail, endUserIp, importedFrom, sessionJti, rowCount, createdAt, updatedAt] = row;
  return { id, accountId, environmentId, templateId, status, writerNode, leaseUntil, meta, file, fileId, endUserId, endUserEmail, endUserIp, importedFrom, sessionJti, rowCount, createdAt, updatedAt };
}
