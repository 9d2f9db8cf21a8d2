import type Database from 'better-sqlite3';
import type { ImportJsonPage, KeysetPosition } from '../../store';
import type { Db } from '../open-database';
import { rawQuery } from '../prepared';

// The plain list's page rendered by SQLite as one blob, as the rows page is (import-rows.ts): better-sqlite3 makes
// one Buffer instead of eleven values per import, and the answer sends those bytes as they are (a list page
// through rows cost about 300 µs in process, this statement about 150). Each import is rendered as listItemJson
// (services/imports/views.ts) renders it: json_quote writes a text as JSON.stringify does and NULL as null; meta
// and file are the JSON the service stored (test/db/sqlite-list-json.test.ts compares the two).
const ITEM = `'{"id":' || json_quote(id) || ',"templateId":' || json_quote(template_id) || ',"createdAt":' || json_quote(created_at)
  || ',"updatedAt":' || json_quote(updated_at) || ',"fileId":' || json_quote(file_id) || ',"file":' || coalesce(file, 'null')
  || ',"meta":' || meta || ',"endUserId":' || json_quote(end_user_id) || ',"endUserEmail":' || json_quote(end_user_email)
  || ',"importedFrom":' || json_quote(imported_from) || ',"rowCount":' || row_count || '}'`;

// The page is read in order by the subquery (a co-routine), which group_concat joins in that order; an import
// over its share comes out without its JSON, which tells the caller to read the page as rows. The last import's
// position is the least `created_at || char(1) || id`: ordered as (created_at, id) since created_at is the
// service's ISO time, which holds no character below char(2). `LIMIT @limit + 0`: import-rows.ts says why.
function pageStatement(sqlite: Database.Database, afterCondition: string) {
  return sqlite
    .prepare<Record<string, string | number>, JsonPageColumns>(
      `SELECT json, n, fitting, last, EXISTS (SELECT 1 FROM imports WHERE account_id = @account AND status = 'complete'
           AND (created_at, id) < (substr(last, 1, instr(last, char(1)) - 1), substr(last, instr(last, char(1)) + 1)))
       FROM (SELECT CAST(group_concat(item, ',') AS BLOB) AS json, count(*) AS n, count(item) AS fitting, min(created_at || char(1) || id) AS last
             FROM (SELECT CASE WHEN octet_length(meta) + coalesce(octet_length(file), 0) <= @share THEN ${ITEM} END AS item, created_at, id
                   FROM imports WHERE account_id = @account AND status = 'complete'${afterCondition}
                   ORDER BY created_at DESC, id DESC LIMIT @limit + 0))`,
    )
    .raw();
}

/** The page's JSON (null when empty), its import count, how many are within their share, the last position as `created_at char(1) id`, 1 if an import follows. */
type JsonPageColumns = [Buffer | null, number, number, string | null, number];

const statements = rawQuery((sqlite) => ({
  first: pageStatement(sqlite, ''),
  after: pageStatement(sqlite, ' AND (created_at, id) < (@at, @id)'),
}));

const EMPTY = new Uint8Array(0);

/**
 * The account's first `limit` complete imports newest first after `after`, as a list page's JSON; undefined when
 * one of them holds more than floor(maxBytes / limit) bytes of meta and file (the caller then reads the page as rows).
 */
export function renderImportPage(db: Db, accountId: string, after: KeysetPosition | undefined, limit: number, maxBytes: number): ImportJsonPage | undefined {
  const { first, after: next } = statements(db);
  const values = { account: accountId, share: Math.floor(maxBytes / limit), limit };
  const [json, count, fitting, last, more] = after ? next.get({ ...values, at: after.value, id: after.id })! : first.get(values)!;
  if (fitting < count) return undefined;
  const cut = last === null ? -1 : last.indexOf('\u0001');
  return { json: json ?? EMPTY, count, last: last === null ? undefined : { value: last.slice(0, cut), id: last.slice(cut + 1) }, hasMore: more === 1 };
}
