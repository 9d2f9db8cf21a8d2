import type { ApiKeyRow, ImportListRow, KeysetPosition } from '../../store';
import type { Db } from '../open-database';
import { findApiKeyByHash } from './environments';
import { countImports, listImportPage } from './imports';

/**
 * The plain authenticated list: the key, its account's newest imports and their count in one read transaction
 * (each costs SQLite's WAL read lock and unlock) instead of three. As PostgreSQL's queries/keyed-import-page.ts.
 */
export function findKeyedImportPage(db: Db, hash: string, after: KeysetPosition | undefined, limit: number): { key: ApiKeyRow; rows: ImportListRow[]; total: number } | undefined {
  return db.transaction(
    () => {
      const key = findApiKeyByHash(db, hash);
      if (!key) return undefined;
      const rows = limit === 0 ? [] : listImportPage(db, key.accountId, { orderBy: 'createdAt', direction: 'desc', after, limit, filters: {} });
      return { key, rows, total: countImports(db, key.accountId, {}) };
    },
    { behavior: 'deferred' },
  );
}
