import type pg from 'pg';
import { importListRowOf, type ImportListColumns, type ImportListRow, type KeyedImportPage, type KeysetPosition } from '../../store';
import { keyOf, type KeyColumns, KEY_COLUMNS } from './keyed-import';
import { sizedStatement } from './sized-statements';

// The plain authenticated list: the key with its account's counter, then its account's newest imports (the
// keyset page, laterally), in one statement: one round trip instead of three (the key, then the page and the
// count side by side). One row for the key and one per import: the key's row holds the key and the counter as one
// JSON array in the first column, each import's row a NULL there and its own columns after it. Repeating the
// key's twelve columns on every import row cost node-postgres more to parse than the page itself (0.65 vs 0.52 ms
// a page of 101), and so did thirteen NULL columns on each (bench/list-ab.ts --pg, deep pages 1.40 -> 1.32 and
// 1.91 -> 1.71 ms). The import rows keep the lateral page's order (UNION ALL appends its branches' rows as they
// come). Named so that each connection parses it once; the page after a cursor is a second statement rather than
// a condition on a parameter, which would keep the planner from the index's order.
const KEY_ROW = `SELECT json_build_array(k.id, k.account_id, k.environment_id, k.kind, k.hash, k.prefix, k.active, k.allowed_origins,
    k.created_at, k.last_used_at, k.deactivated_at, k.expires_at, (SELECT c.complete FROM import_counts c WHERE c.account_id = k.account_id))::text,
    ${nulls(11)} FROM api_keys k WHERE k.hash = $1`;
const IMPORT_ROWS = `SELECT NULL, p.* FROM api_keys k, LATERAL (SELECT i.id, i.template_id, i.meta, i.file, i.file_id, i.end_user_id,
    i.end_user_email, i.imported_from, i.row_count, i.created_at, i.updated_at
    FROM imports i WHERE i.account_id = k.account_id AND i.status = 'complete'`;
const pageEnd = (limit: string) => ` ORDER BY i.created_at DESC, i.id DESC LIMIT ${limit}) p WHERE k.hash = $1`;
const NEXT_PAGE = (limit: string) => `${KEY_ROW} UNION ALL ${IMPORT_ROWS} AND (i.created_at, i.id) < ($2, $3)${pageEnd(limit)}`;
const FIRST_PAGE = (limit: string) => `${KEY_ROW} UNION ALL ${IMPORT_ROWS}${pageEnd(limit)}`;

function nulls(count: number): string {
  return Array.from({ length: count }, () => 'NULL').join(', ');
}

/** The key of that hash and, when it has one, its account's page of `limit` imports (and the next, when there is one) and their count; undefined without the key. */
export async function findKeyedImportPage(pool: pg.Pool, hash: string, after: KeysetPosition | undefined, limit: number): Promise<KeyedImportPage | undefined> {
  const fetched = limit === 0 ? 0 : limit + 1;
  // The page's size written in (sized-statements.ts says why): a page of 100 and the import after it at most.
  const statement = after
    ? { ...sizedStatement('keyed-import-next-page', fetched, 101, NEXT_PAGE), values: [hash, after.value, after.id] }
    : { ...sizedStatement('keyed-import-first-page', fetched, 101, FIRST_PAGE), values: [hash] };
  const result = await pool.query<unknown[]>({ ...statement, rowMode: 'array' });
  let keyRow: [...KeyColumns, number | null] | undefined;
  const rows: ImportListRow[] = [];
  for (const row of result.rows) {
    if (row[0] === null) rows.push(importListRowOf(row.slice(1) as ImportListColumns));
    else keyRow = JSON.parse(row[0] as string);
  }
  if (!keyRow) return undefined;
  return { key: keyOf(keyRow.slice(0, KEY_COLUMNS) as KeyColumns), total: keyRow[KEY_COLUMNS] ?? 0, rows };
}
