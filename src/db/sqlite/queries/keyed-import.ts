import type { ImportDetailRow, KeyCheckRow } from '../../store';
import type { Db } from '../open-database';
import { rawQuery } from '../prepared';

// The authenticated detail and rows reads: the key and the import in one statement, so one read transaction
// (each costs SQLite's WAL read lock and unlock, two fcntl calls) and one statement run instead of two; only
// the 21 columns those reads use (each value costs better-sqlite3 a JavaScript value made through V8's API).
const keyedImportView = rawQuery((sqlite) =>
  sqlite
    .prepare<[string, string], KeyedImportColumns>(
      `SELECT k.id, k.account_id, k.environment_id, k.kind, k.hash, k.active, k.allowed_origins, k.expires_at,
         i.id, i.template_id, i.meta, i.file, i.end_user_id, i.end_user_email, i.end_user_ip, i.imported_from, i.session_jti, i.row_count,
         i.cell_stats, i.created_at, i.updated_at
       FROM api_keys k LEFT JOIN imports i ON i.account_id = k.account_id AND i.id = ? AND i.status = 'complete' WHERE k.hash = ?`,
    )
    .raw(),
);

type Text = string | null;
type KeyedImportColumns = [
  ...[string, string, string, KeyCheckRow['kind'], string, number, string, Text],
  ...[string | null, string, string, Text, Text, Text, Text, Text, Text, number, string, string, string],
];

/** The key of that hash and, when it has one, its account's complete import; undefined without the key. */
export function findKeyedImportView(db: Db, hash: string, importId: string): { key: KeyCheckRow; view: ImportDetailRow | undefined } | undefined {
  const row = keyedImportView(db).get(importId, hash);
  if (!row) return undefined;
  const [keyId, accountId, environmentId, kind, keyHash, active, allowedOrigins, expiresAt, id, ...view] = row;
  const key = { id: keyId, accountId, environmentId, kind, hash: keyHash, active: active === 1, allowedOrigins: JSON.parse(allowedOrigins) as string[], expiresAt };
  if (id === null) return { key, view: undefined };
  const [templateId, meta, file, endUserId, endUserEmail, endUserIp, importedFrom, sessionJti, rowCount, cellStats, createdAt, updatedAt] = view;
  return { key, view: { id, templateId, meta, file, endUserId, endUserEmail, endUserIp, importedFrom, sessionJti, rowCount, cellStats, createdAt, updatedAt } };
}
