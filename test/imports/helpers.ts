import assert from 'node:assert/strict';
import { call, json, type Harness, type TestEnvironment } from '../helpers/harness';

/** Posts an import with the Secret Key; `schemaKey` defaults to `contacts`. */
export async function postImport(h: Harness, env: TestEnvironment, body: Record<string, unknown>): Promise<Response> {
  return call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: 'contacts' }, ...body } });
}

/** Posts an import that must succeed; returns the create response. */
export async function createImportOk(h: Harness, env: TestEnvironment, body: Record<string, unknown>): Promise<any> {
  const response = await postImport(h, env, body);
  assert.equal(response.status, 201, await response.clone().text());
  return json(response);
}

/** Rows of `n` numbered contacts. */
export function contactRows(n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({ name: `person ${i}`, email: `p${i}@example.com`, age: i % 90 }));
}

/**
 * Follows nextCursor from `url` until hasNext is false, checking each page's envelope; returns every item
 * and the pages seen.
 */
export async function walkPages(h: Harness, key: string, url: string): Promise<{ items: any[]; pages: any[] }> {
  const items: any[] = [];
  const pages: any[] = [];
  let cursor: string | null = null;
  for (;;) {
    const separator = url.includes('?') ? '&' : '?';
    const response = await call(h, 'GET', cursor ? `${url}${separator}cursor=${cursor}` : url, { key });
    assert.equal(response.status, 200, await response.clone().text());
    const page = await json(response);
    const { paging } = page.pagination;
    assert.equal(paging.cursor, cursor);
    assert.equal(paging.count, page.data.length);
    assert.equal(paging.hasNext, paging.nextCursor !== null);
    if (paging.hasNext) assert.equal(page.data.length, paging.limit);
    pages.push(page);
    items.push(...page.data);
    if (!paging.hasNext) return { items, pages };
    cursor = paging.nextCursor;
    assert.ok(pages.length < 1000, 'pagination does not end');
  }
}

/** Count of rows in a table, optionally for one import. */
export async function countRows(h: Harness, table: 'imports' | 'import_rows', importId?: string): Promise<number> {
  const column = table === 'imports' ? 'id' : 'import_id';
  const where = importId ? ` WHERE ${column} = ?` : '';
  return (await h.sql<{ n: number }>(`SELECT count(*) AS n FROM ${table}${where}`, ...(importId ? [importId] : [])))[0]!.n;
}
