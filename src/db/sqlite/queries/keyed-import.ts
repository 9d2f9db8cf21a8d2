import type { ApiKeyRow, ImportViewRow } from '../../store';
import type { Db } from '../open-database';
import { rawQuery } from '../prepared';
import { API_KEY_COLUMNS, apiKeyOf, type ApiKeyColumns } from './environments';
import { IMPORT_VIEW_COLUMNS, importViewOf, type ImportViewColumns } from './imports';

// The authenticated detail and rows reads: the key and the import in one statement, so one read transaction
// (each costs SQLite's WAL read lock and unlock, two fcntl calls) and one statement run instead of two.
const keyedImportView = rawQuery((sqlite) =>
  sqlite
    .prepare<[string, string], [...ApiKeyColumns, ...ImportViewColumns]>(
      `SELECT ${API_KEY_COLUMNS.map((column) => `k.${column}`).join(', ')}, ${IMPORT_VIEW_COLUMNS.map((column) => `i.${column}`).join(', ')}
       FROM api_keys k LEFT JOIN imports i ON i.account_id = k.account_id AND i.id = ? AND i.status = 'complete' WHERE k.hash = ?`,
    )
    .raw(),
);

/** The key of that hash and, when it has one, its account's complete import (findImportView); undefined without the key. */
export function findKeyedImportView(db: Db, hash: string, importId: string): { key: ApiKeyRow; view: ImportViewRow | undefined } | undefined {
  const row = keyedImportView(db).get(importId, hash);
  if (!row) return undefined;
  const view = row.slice(API_KEY_COLUMNS.length) as ImportViewColumns;
  return { key: apiKeyOf(row.slice(0, API_KEY_COLUMNS.length) as ApiKeyColumns), view: view[0] === null ? undefined : importViewOf(view) };
}
