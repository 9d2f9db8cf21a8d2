import type pg from 'pg';
import type { ApiKeyRow, ImportDetailRow, KeyCheckRow } from '../../store';

// The authenticated detail and rows reads: the key and the import in one statement (one round trip instead of
// two), named so that each connection parses it once; only the columns those reads use. As SQLite's queries/keyed-import.ts.
const KEYED_IMPORT_DETAIL = `SELECT k.id, k.account_id, k.environment_id, k.kind, k.hash, k.active, k.allowed_origins, k.expires_at,
    i.id, i.template_id, i.meta, i.file, i.end_user_id, i.end_user_email, i.end_user_ip, i.imported_from, i.session_jti, i.row_count,
    i.cell_stats, i.created_at, i.updated_at
  FROM api_keys k LEFT JOIN imports i ON i.account_id = k.account_id AND i.id = $2 AND i.status = 'complete' WHERE k.hash = $1`;
/** How many of its columns are the key's in the list's keyed page (keyed-import-page.ts, keyOf), the rest the imports'. */
export const KEY_COLUMNS = 12;

/** The key of that hash and, when it has one, its account's complete import; undefined without the key. */
export async function findKeyedImportView(pool: pg.Pool, hash: string, importId: string): Promise<{ key: KeyCheckRow; view: ImportDetailRow | undefined } | undefined> {
  const result = await pool.query<KeyedImportColumns>({ name: 'keyed-import-detail', text: KEYED_IMPORT_DETAIL, values: [hash, importId], rowMode: 'array' });
  const row = result.rows[0];
  if (!row) return undefined;
  const [keyId, accountId, environmentId, kind, keyHash, active, allowedOrigins, expiresAt, id, ...view] = row;
  const key = { id: keyId, accountId, environmentId, kind, hash: keyHash, active, allowedOrigins, expiresAt };
  if (id === null) return { key, view: undefined };
  const [templateId, meta, file, endUserId, endUserEmail, endUserIp, importedFrom, sessionJti, rowCount, cellStats, createdAt, updatedAt] = view;
  return { key, view: { id, templateId, meta, file, endUserId, endUserEmail, endUserIp, importedFrom, sessionJti, rowCount, cellStats, createdAt, updatedAt } };
}

type KeyedImportColumns = [
  ...[string, string, string, KeyCheckRow['kind'], string, boolean, string[], Text],
  ...[string | null, string, string, Text, Text, Text, Text, Text, Text, number, string, string, string],
];

type Text = string | null;
export type KeyColumns = [string, string, string, ApiKeyRow['kind'], string, string, boolean, string[], string, Text, Text, Text];

export function keyOf(row: KeyColumns): ApiKeyRow {
  const [id, accountId, environmentId, kind, hash, prefix, active, allowedOrigins, createdAt, lastUsedAt, deactivatedAt, expiresAt] = row;
  return { id, accountId, environmentId, kind, hash, prefix, active, allowedOrigins, createdAt, lastUsedAt, deactivatedAt, expiresAt };
}

