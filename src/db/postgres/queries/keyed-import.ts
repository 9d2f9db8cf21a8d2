import type pg from 'pg';
import type { ApiKeyRow, ImportViewRow } from '../../store';

// The authenticated detail and rows reads: the key and the import in one statement (one round trip instead of
// two), named so that each connection parses it once. As SQLite's queries/keyed-import.ts.
const KEY_COLUMNS = ['id', 'account_id', 'environment_id', 'kind', 'hash', 'prefix', 'active', 'allowed_origins', 'created_at', 'last_used_at', 'deactivated_at', 'expires_at'];
const VIEW_COLUMNS = [
  'id', 'account_id', 'environment_id', 'template_id', 'status', 'writer_node', 'lease_until', 'meta', 'file', 'file_id', 'end_user_id',
  'end_user_email', 'end_user_ip', 'imported_from', 'session_jti', 'row_count', 'cell_stats', 'created_at', 'updated_at',
];
const KEYED_IMPORT_VIEW = `SELECT ${KEY_COLUMNS.map((column) => `k.${column}`).join(', ')}, ${VIEW_COLUMNS.map((column) => `i.${column}`).join(', ')}
  FROM api_keys k LEFT JOIN imports i ON i.account_id = k.account_id AND i.id = $2 AND i.status = 'complete' WHERE k.hash = $1`;

/** The key of that hash and, when it has one, its account's complete import (findImportView); undefined without the key. */
export async function findKeyedImportView(pool: pg.Pool, hash: string, importId: string): Promise<{ key: ApiKeyRow; view: ImportViewRow | undefined } | undefined> {
  const result = await pool.query<unknown[]>({ name: 'keyed-import-view', text: KEYED_IMPORT_VIEW, values: [hash, importId], rowMode: 'array' });
  const row = result.rows[0];
  if (!row) return undefined;
  const key = keyOf(row.slice(0, KEY_COLUMNS.length) as KeyColumns);
  const view = row.slice(KEY_COLUMNS.length) as ViewColumns;
  return { key, view: view[0] === null ? undefined : viewOf(view) };
}

type Text = string | null;
type KeyColumns = [string, string, string, ApiKeyRow['kind'], string, string, boolean, string[], string, Text, Text, Text];
type ViewColumns = [string, string, Text, string, ImportViewRow['status'], Text, Text, string, Text, Text, Text, Text, Text, Text, Text, number, string, string, string];

function keyOf(row: KeyColumns): ApiKeyRow {
  const [id, accountId, environmentId, kind, hash, prefix, active, allowedOrigins, createdAt, lastUsedAt, deactivatedAt, expiresAt] = row;
  return { id, accountId, environmentId, kind, hash, prefix, active, allowedOrigins, createdAt, lastUsedAt, deactivatedAt, expiresAt };
}

function viewOf(row: ViewColumns): ImportViewRow {
  const [id, accountId, environmentId, templateId, status, writerNode, leaseUntil, meta, file, fileId, endUserId, endUserEmail, endUserIp, importedFrom, sessionJti, rowCount, cellStats, createdAt, updatedAt] = row;
  return { id, accountId, environmentId, templateId, status, writerNode, leaseUntil, meta, file, fileId, endUserId, endUserEmail, endUserIp, importedFrom, sessionJti, rowCount, cellStats, createdAt, updatedAt };
}
