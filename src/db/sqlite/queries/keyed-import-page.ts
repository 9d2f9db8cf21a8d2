import type { KeyedImportPage, KeysetPosition } from '../../store';
import type { Db } from '../open-database';
import { preparedQuery } from '../prepared';
import { findApiKeyByHash } from './environments';
import { renderImportPage } from './import-list-json';
import { countImports, listImportPage } from './imports';

/**
 * The plain authenticated list: the key, its account's newest imports and their count in one read transaction
 * (each costs SQLite's WAL read lock and unlock) instead of three. As PostgreSQL's queries/keyed-import-page.ts.
 * The transaction function is made once per database: drizzle's `transaction()` builds a transaction object
 * and better-sqlite3's wrapper on every call (about 5 % of a list page).
 */
const keyedImportPage = preparedQuery((db) =>
  db.$client.transaction((hash: string, after: KeysetPosition | undefined, limit: number, renderWithin: number | undefined): KeyedImportPage | undefined => {
    const key = findApiKeyByHash(db, hash);
    if (!key) return undefined;
    const total = countImports(db, key.accountId, {});
    if (limit === 0) return { key, total, rows: [] };
    const rendered = renderWithin === undefined ? undefined : renderImportPage(db, key.accountId, after, limit, renderWithin);
    if (rendered) return { key, total, rendered };
    return { key, total, rows: listImportPage(db, key.accountId, { orderBy: 'createdAt', direction: 'desc', after, limit: limit + 1, filters: {} }) };
  }),
);

export function findKeyedImportPage(db: Db, hash: string, after: KeysetPosition | undefined, limit: number, renderWithin?: number): KeyedImportPage | undefined {
  return keyedImportPage(db)(hash, after, limit, renderWithin);
}
