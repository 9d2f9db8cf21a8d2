import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { contactRows, createImportOk, walkPages } from './helpers';

describe('GET /v1/imports/{id} and /rows', () => {
  const { h, env, other } = useHarness({ environments: { other: { account: 'other' } } });
  let imported: any;
  const rows = contactRows(250);

  before(async () => {
    imported = await createImportOk(h, env, { rows, meta: { schemaKey: 'contacts', file: { name: 'c.csv' } } });
  });

  it('answers the create request in the create shape: exactly the spec members', () => {
    assert.deepEqual(Object.keys(imported).sort(), [
      'createdAt', 'endUserEmail', 'endUserId', 'fileId', 'file', 'id', 'importedFrom', 'meta', 'rowCount', 'status', 'templateId', 'updatedAt',
    ].sort());
  });

  it('returns the detail shape: exactly the spec members', async () => {
    const response = await call(h, 'GET', `/v1/imports/${imported.id}`, { key: env.secretKey });
    assert.equal(response.status, 200);
    const detail = await json(response);
    assert.deepEqual(Object.keys(detail).sort(), [
      'cellStats', 'createdAt', 'endUserEmail', 'endUserId', 'endUserIp', 'file', 'id', 'importedFrom', 'meta', 'reviewReason', 'reviewedAt', 'sessionJti', 'status', 'templateId', 'updatedAt',
    ].sort());
    assert.deepEqual(Object.keys(detail.cellStats).sort(), ['fieldBreakdown', 'rowCount', 'totalCells']);
    assert.deepEqual(detail.cellStats.fieldBreakdown.map((f: any) => Object.keys(f).sort()), [['count', 'key', 'type'], ['count', 'key', 'type'], ['count', 'key', 'type']]);
    assert.equal(detail.cellStats.totalCells, 750);
  });

  it('appears in the statistics overview in the overview shape: exactly the spec members', async () => {
    const overview = await json(await call(h, 'GET', '/v1/stats/overview', { key: env.secretKey }));
    assert.equal(overview.latestImports[0].id, imported.id);
    assert.deepEqual(Object.keys(overview.latestImports[0]).sort(), ['createdAt', 'fileId', 'id', 'meta', 'templateId', 'updatedAt']);
  });

  it('answers 404 for unknown ids and for another account’s import', async () => {
    for (const path of ['', '/rows', '/export']) {
      for (const [key, id] of [[env.secretKey, '01900000-0000-7000-8000-000000000000'], [other.secretKey, imported.id], [env.secretKey, 'x'.repeat(100)]]) {
        const response = await call(h, 'GET', `/v1/imports/${id}${path}`, { key });
        assert.equal(response.status, 404, `${path} ${id}`);
        assert.equal((await json(response)).error.code, 'not_found');
      }
    }
  });

  it('walks 250 rows with limit 100: every row once, in order, total from the stored count', async () => {
    const { items, pages } = await walkPages(h, env.secretKey, `/v1/imports/${imported.id}/rows?limit=100`);
    assert.deepEqual(pages.map((p) => p.data.length), [100, 100, 50]);
    assert.deepEqual(items.map((r) => r.rowIndex), rows.map((_, i) => i));
    assert.deepEqual(items.map((r) => r.data), rows);
    for (const page of pages) {
      assert.equal(page.pagination.paging.total, 250);
      assert.deepEqual(page.pagination.sort, { orderBy: 'rowIndex', direction: 'asc' });
      assert.deepEqual(page.pagination.filters, {});
    }
  });

  it('cuts pages of multi-byte rows by characters on both engines, every row still reachable both ways', async () => {
    // 80 rows of 60 000 two-byte characters: 4.8 M characters, 9.6 MB of UTF-8; a page holds 4 Mi characters.
    const wide = Array.from({ length: 80 }, (_, i) => ({ i, t: 'é'.repeat(60_000) }));
    const created = await createImportOk(h, env, { rows: wide });
    for (const direction of ['asc', 'desc']) {
      const seen: number[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      do {
        const page: any = await json(await call(h, 'GET', `/v1/imports/${created.id}/rows?limit=100&direction=${direction}${cursor ? `&cursor=${cursor}` : ''}`, { key: env.secretKey }));
        seen.push(...page.data.map((r: { rowIndex: number }) => r.rowIndex));
        sizes.push(page.data.length);
        cursor = page.pagination.paging.nextCursor;
      } while (cursor);
      assert.deepEqual(sizes, [70, 10], direction);
      assert.deepEqual(seen, direction === 'asc' ? wide.map((r) => r.i) : wide.map((r) => 79 - r.i));
    }
  });

  it('walks backwards with direction=desc', async () => {
    const { items } = await walkPages(h, env.secretKey, `/v1/imports/${imported.id}/rows?limit=33&direction=desc&sortBy=rowIndex`);
    assert.deepEqual(items.map((r) => r.rowIndex), rows.map((_, i) => 249 - i));
  });

  for (const limit of [1, 100]) {
    it(`accepts limit=${limit}`, async () => {
      const page = await json(await call(h, 'GET', `/v1/imports/${imported.id}/rows?limit=${limit}`, { key: env.secretKey }));
      assert.equal(page.data.length, limit);
      assert.equal(page.pagination.paging.hasNext, true);
    });
  }

  for (const query of ['limit=0', 'limit=-1', 'limit=101', 'limit=abc', 'sortBy=name', 'direction=sideways', 'cursor=nonsense']) {
    it(`rejects ${query}`, async () => {
      const response = await call(h, 'GET', `/v1/imports/${imported.id}/rows?${query}`, { key: env.secretKey });
      assert.equal(response.status, 400);
      assert.equal((await json(response)).error.details[0].path, query.split('=')[0]);
    });
  }

  it('rejects a cursor made for another direction, another import or another account', async () => {
    const second = await createImportOk(h, env, { rows: contactRows(5) });
    const first = await json(await call(h, 'GET', `/v1/imports/${imported.id}/rows?limit=2`, { key: env.secretKey }));
    const cursor = first.pagination.paging.nextCursor;
    const listCursor = (await json(await call(h, 'GET', '/v1/imports?limit=1', { key: env.secretKey }))).pagination.paging.nextCursor;
    for (const url of [
      `/v1/imports/${imported.id}/rows?cursor=${cursor}&direction=desc`,
      `/v1/imports/${second.id}/rows?cursor=${cursor}`,
      `/v1/imports/${imported.id}/rows?cursor=${listCursor}`,
    ]) {
      const response = await call(h, 'GET', url, { key: env.secretKey });
      assert.equal(response.status, 400, url);
    }
  });
});
