import type pg from 'pg';
import type { ApiKeyRow, ImportViewRow } from '../../store';

// The authenticated detail and rows reads: the key and the import in one statement (one round trip instead of
// two), named so that each connection parses it once. As SQLite's queries/keyed-import.ts.
const KEYED_IMPORT_VIEW = `SELECT k.id, k.account_id, k.environment_id, k.kind, k.hash, k.prefix, k.active, k.allowed_origins, k.created_at,
    k.last_used_at, k.deactivated_at, k.expires_at,
    i.id, i.account_id, i.environment_id, i.template_id, i.status, i.writer_node, i.lease_until, i.meta, i.file, i.file_id, i.end_user_id,
    i.end_user_email, i.end_user_ip, i.imported_from, i.session_jti, i.row_count, i.cell_stats, i.created_at, i.updated_at
  FROM api_keys k LEFT JOIN imports i ON i.account_id = k.account_id AND i.id = $2 AND i.status = 'complete' WHERE k.hash = $1`;
/** How many of its columns are the key's, the rest the import's. */
export const KEY_COLUMNS = 12;

/** The key of that hash and, when it has one, its account's complete import (findImportView); undefined without the key. */
export async function findKeyedImportView(pool: pg.Pool, hash: string, importId: string): Promise<{ key: ApiKeyRow; view: ImportViewRow | undefined } | undefined> {
  const result = await pool.query<unknown[]>({ name: 'keyed-import-view', text: KEYED_IMPORT_VIEW, values: [hash, importId], rowMode: 'array' });
  const row = result.rows[0];
  if (!row) return undefined;
  const key = keyOf(row.slice(0, KEY_COLUMNS) as KeyColumns);
  const view = row.slice(KEY_COLUMNS) as ViewColumns;
  return { key, view: view[0] === null ? undefined : viewOf(view) };
}

type Text = string | null;
export type KeyColumns = [string, string, string, ApiKeyRow['kind'], string, string, boolean, string[], string, Text, Text, Text];
type ViewColumns = [string, string, Text, string, ImportViewRow['status'], Text, Text, string, Text, Text, Text, Text, Text, Text, Text, number, string, string, string];

export function keyOf(row: KeyColumns): ApiKeyRow {
  const [id, accountId, environmentId, kind, hash, prefix, active, allowedOrigins, createdAt, lastUsedAt, deactivatedAt, expiresAt] = row;
  return { id, accountId, environmentId, kind, hash, prefix, active, allowedOrigins, createdAt, lastUsedAt, deactivatedAt, expiresAt };
}

function viewOf(row: ViewColumns): ImportViewRow {
  const [id, accountId, environmentId, templateId, status, writerNode, leaseUntil, meta, file, fileId, endUserId, endUserEmail, endUserIp, importedFrom, sessionJti, rowCount, cellStats, createdAt, updatedAt] = row;
  return { id, accountId, environmentId, templateId, status, writerNode, leaseUntil, meta, file, fileId, endUserId, endUserEmail, endUserIp, importedFrom, sessionJti, rowCount, cellStats, createdAt, updatedAt };
}
