import type { ApiKeyRow, ImportListRow, KeysetPosition } from '../../store';
import type { Db } from '../open-database';
import { preparedQuery } from '../prepared';
import { findApiKeyByHash } from './environments';
import { countImports, listImportPage } from './imports';

/**
 * The plain authenticated list: the key, its account's newest imports and their count in one read transaction
 * (each costs SQLite's WAL read lock and unlock) instead of three. As PostgreSQL's queries/keyed-import-page.ts.
 * The transaction function is made once per database: drizzle's `transaction()` builds a transaction object
 * and better-sqlite3's wrapper on every call (about 5 % of a list page).
 */
const keyedImportPage = preparedQuery((db) =>
  db.$client.transaction((hash: string, after: KeysetPosition | undefined, limit: number): { key: ApiKeyRow; rows: ImportListRow[]; total: number } | undefined => {
    const key = findApiKeyByHash(db, hash);
    if (!key) return undefined;
    const rows = limit === 0 ? [] : listImportPage(db, key.accountId, { orderBy: 'createdAt', direction: 'desc', after, limit, filters: {} });
    return { key, rows, total: countImports(db, key.accountId, {}) };
  }),
);

export function findKeyedImportPage(db: Db, hash: string, after: KeysetPosition | undefined, limit: number): { key: ApiKeyRow; rows: ImportListRow[]; total: number } | undefined {
  return keyedImportPage(db)(hash, after, limit);
}
