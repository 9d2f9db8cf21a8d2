import type { ApiKeyRow, ImportViewRow } from '../../store';
import type { Db } from '../open-database';
import { rawQuery } from '../prepared';
import { apiKeyOf, type ApiKeyColumns } from './environments';
import { importViewOf, type ImportViewColumns } from './imports';

// The authenticated detail and rows reads: the key and the import in one statement, so one read transaction
// (each costs SQLite's WAL read lock and unlock, two fcntl calls) and one statement run instead of two.
const keyedImportView = rawQuery((sqlite) =>
  sqlite
    .prepare<[string, string], [...ApiKeyColumns, ...ImportViewColumns]>(
      `SELECT k.id, k.account_id, k.environment_id, k.kind, k.hash, k.prefix, k.active, k.allowed_origins, k.created_at, k.last_used_at,
         k.deactivated_at, k.expires_at,
         i.id, i.account_id, i.environment_id, i.template_id, i.status, i.writer_node, i.lease_until, i.meta, i.file, i.file_id, i.end_user_id,
         i.end_user_email, i.end_user_ip, i.imported_from, i.session_jti, i.row_count, i.cell_stats, i.created_at, i.updated_at
       FROM api_keys k LEFT JOIN imports i ON i.account_id = k.account_id AND i.id = ? AND i.status = 'complete' WHERE k.hash = ?`,
    )
    .raw(),
);

/** How many of its columns are the key's (apiKeyOf), the rest the import's (importViewOf). */
const KEY_COLUMNS = 12;

/** The key of that hash and, when it has one, its account's complete import (findImportView); undefined without the key. */
export function findKeyedImportView(db: Db, hash: string, importId: string): { key: ApiKeyRow; view: ImportViewRow | undefined } | undefined {
  const row = keyedImportView(db).get(importId, hash);
  if (!row) return undefined;
  const view = row.slice(KEY_COLUMNS) as ImportViewColumns;
  return { key: apiKeyOf(row.slice(0, KEY_COLUMNS) as ApiKeyColumns), view: view[0] === null ? undefined : importViewOf(view) };
}
