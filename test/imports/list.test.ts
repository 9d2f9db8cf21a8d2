import assert from 'node:assert/strict';
import type { ImportFilters } from '../../src/db/store';
import { countImportsQuery, importPageQuery } from '../../src/db/sqlite/queries/imports';
import { before, describe, it } from 'node:test';
import { call, json, testClock } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { sqliteOnly } from '../helpers/test-database';
import { createImportOk, walkPages } from './helpers';

const IMPORTS = 47;

describe('GET /v1/imports', () => {
  const clock = testClock('2026-03-01T00:00:00.000Z');
  const { h, env, staging, other } = useHarness({ clock, environments: { staging: { name: 'staging' }, other: { account: 'other' } } });
  let created: any[] = [];
  const byCreated = (a: any, b: any) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1);

  before(async () => {
    for (let i = 0; i < IMPORTS; i++) {
      // Every third import shares its predecessor's timestamp: ties are ordered by id.
      if (i % 3 !== 1) clock.advance(60_000);
      const through = i % 4 === 0 ? staging : env;
      created.push(await createImportOk(h, through, { meta: { schemaKey: i % 2 ? 'odd' : 'even' }, rows: [{ i }] }));
    }
    await createImportOk(h, other, { rows: [{ foreign: true }] });
    // Later updates (no endpoint changes imports yet): reverse the updatedAt order of the first ten.
    for (const [i, item] of created.slice(0, 10).entries()) {
      await h.sql('UPDATE imports SET updated_at = ? WHERE id = ?', `2026-04-01T00:00:${String(59 - i).padStart(2, '0')}.000Z`, item.id);
    }
    const updated = new Map((await h.sql<{ id: string; updatedAt: string }>('SELECT id, updated_at AS "updatedAt" FROM imports')).map((row) => [row.id, row.updatedAt]));
    created = created.map((item) => ({ ...item, updatedAt: updated.get(item.id)! }));
  });

  it('walks every import exactly once, newest first by default, with a consistent envelope', async () => {
    const { items, pages } = await walkPages(h, env.secretKey, '/v1/imports?limit=10');
    assert.deepEqual(items.map((i) => i.id), [...created].sort(byCreated).reverse().map((i) => i.id));
    assert.equal(pages.length, 5);
    for (const page of pages) {
      assert.equal(page.pagination.paging.total, IMPORTS);
      assert.deepEqual(page.pagination.sort, { orderBy: 'createdAt', direction: 'desc' });
    }
  });

  for (const [orderBy, direction] of [['createdAt', 'asc'], ['updatedAt', 'desc'], ['updatedAt', 'asc']] as const) {
    it(`walks by ${orderBy} ${direction}`, async () => {
      const { items } = await walkPages(h, env.secretKey, `/v1/imports?limit=7&orderBy=${orderBy}&direction=${direction}`);
      const key = (i: any) => `${i[orderBy]}|${i.id}`;
      const expected = [...created].sort((a, b) => (key(a) < key(b) ? -1 : 1)).map((i) => i.id);
      assert.deepEqual(items.map((i) => i.id), direction === 'asc' ? expected : expected.reverse());
    });
  }

  it('lists each import in the list shape: exactly the spec members', async () => {
    const page = await json(await call(h, 'GET', '/v1/imports?limit=1', { key: env.secretKey }));
    assert.deepEqual(Object.keys(page.data[0]).sort(), [
      'createdAt', 'endUserEmail', 'endUserId', 'fileId', 'file', 'id', 'importedFrom', 'meta', 'rowCount', 'status', 'templateId', 'updatedAt',
    ].sort());
    assert.deepEqual(Object.keys(page.pagination).sort(), ['filters', 'paging', 'sort']);
    assert.deepEqual(Object.keys(page.pagination.paging).sort(), ['count', 'cursor', 'hasNext', 'limit', 'nextCursor', 'total']);
    assert.deepEqual(Object.keys(page).sort(), ['data', 'pagination']);
  });

  for (const limit of [0, 1, 100]) {
    it(`accepts limit=${limit}`, async () => {
      const page = await json(await call(h, 'GET', `/v1/imports?limit=${limit}`, { key: env.secretKey }));
      assert.equal(page.data.length, Math.min(limit, IMPORTS));
      assert.equal(page.pagination.paging.limit, limit);
      assert.equal(page.pagination.paging.total, IMPORTS);
      assert.equal(page.pagination.paging.hasNext, limit > 0 && limit < IMPORTS);
    });
  }

  const badQueries = ['limit=-1', 'limit=101', 'limit=abc', 'limit=1.5', 'orderBy=name', 'direction=up', 'templateId=nope', 'startDate=yesterday', 'endDate=2026-13-45'];
  for (const query of badQueries) {
    it(`rejects ${query}`, async () => {
      const response = await call(h, 'GET', `/v1/imports?${query}`, { key: env.secretKey });
      assert.equal(response.status, 400);
      const body = await json(response);
      assert.equal(body.error.code, 'validation_failed');
      assert.equal(body.error.details[0].path, query.split('=')[0]);
    });
  }

  it('rejects a forged, edited or foreign cursor with 400', async () => {
    const first = await json(await call(h, 'GET', '/v1/imports?limit=5', { key: env.secretKey }));
    const cursor: string = first.pagination.paging.nextCursor;
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    const edited = Buffer.from(JSON.stringify({ ...decoded, v: '2000-01-01T00:00:00.000Z' })).toString('base64url');
    const otherFirst = await json(await call(h, 'GET', '/v1/imports?limit=0', { key: other.secretKey }));
    assert.equal(otherFirst.pagination.paging.total, 1);
    const attempts = [
      { key: env.secretKey, query: 'cursor=garbage' },
      { key: env.secretKey, query: `cursor=${Buffer.from('{"v":"x","m":"y"}').toString('base64url')}` },
      { key: env.secretKey, query: `cursor=${edited}` },
      { key: env.secretKey, query: `cursor=${cursor}&direction=asc` },
      { key: env.secretKey, query: `cursor=${cursor}&orderBy=updatedAt` },
      { key: env.secretKey, query: `cursor=${cursor}&environment=staging` },
      { key: other.secretKey, query: `cursor=${cursor}` },
    ];
    for (const attempt of attempts) {
      const response = await call(h, 'GET', `/v1/imports?limit=5&${attempt.query}`, { key: attempt.key });
      assert.equal(response.status, 400, attempt.query);
      assert.equal((await json(response)).error.details[0].path, 'cursor');
    }
    const again = await call(h, 'GET', `/v1/imports?limit=5&cursor=${cursor}`, { key: env.secretKey });
    assert.equal(again.status, 200);
  });

  it('filters by templateId and environment, echoing the filters, and pages within them', async () => {
    const odd = created.filter((_, i) => i % 2 === 1);
    const byTemplate = await walkPages(h, env.secretKey, `/v1/imports?limit=4&templateId=${odd[0].templateId}`);
    assert.deepEqual(byTemplate.items.map((i) => i.id).sort(), odd.map((i) => i.id).sort());
    assert.equal(byTemplate.pages[0].pagination.paging.total, odd.length);
    assert.deepEqual(byTemplate.pages[0].pagination.filters, {
      templateId: odd[0].templateId, startDate: null, endDate: null, userEmail: null, environment: null, status: null,
    });
    const viaStaging = created.filter((_, i) => i % 4 === 0);
    const byEnvironment = await walkPages(h, env.secretKey, '/v1/imports?limit=5&environment=staging');
    assert.deepEqual(byEnvironment.items.map((i) => i.id).sort(), viaStaging.map((i) => i.id).sort());
    const unknown = await json(await call(h, 'GET', '/v1/imports?environment=nope', { key: env.secretKey }));
    assert.deepEqual([unknown.data.length, unknown.pagination.paging.total], [0, 0]);
  });

  it('bounds createdAt by startDate (inclusive) and endDate (exclusive)', async () => {
    const sorted = [...created].sort(byCreated);
    const start = sorted[10].createdAt;
    const end = sorted[20].createdAt;
    const page = await json(await call(h, 'GET', `/v1/imports?limit=100&startDate=${start}&endDate=${end}`, { key: env.secretKey }));
    const expected = sorted.filter((i) => i.createdAt >= start && i.createdAt < end).map((i) => i.id);
    assert.ok(expected.length >= 9);
    assert.deepEqual(page.data.map((i: any) => i.id).sort(), expected.sort());
    assert.equal(page.pagination.paging.total, expected.length);
    // An offset is converted to UTC before comparing.
    const shifted = new Date(start).toISOString().replace('Z', '+00:00');
    const withOffset = await json(await call(h, 'GET', `/v1/imports?limit=0&startDate=${encodeURIComponent(shifted)}&endDate=${end}`, { key: env.secretKey }));
    assert.equal(withOffset.pagination.paging.total, expected.length);
    assert.equal(withOffset.pagination.filters.startDate, start);
  });

  it('matches userEmail as a case-insensitive substring in which % and _ are literal', async () => {
    const emails = ['a%b@example.com', 'a_b@example.com', 'axb@example.com', 'AXB@Example.org'];
    const set = (email: string | null, id: string) => h.sql('UPDATE imports SET end_user_email = ? WHERE id = ?', email, id);
    for (const [i, email] of emails.entries()) await set(email, created[i].id);
    const cases: [string, string[]][] = [
      ['%', ['a%b@example.com']],
      ['_', ['a_b@example.com']],
      ['a_b', ['a_b@example.com']],
      ['a%', ['a%b@example.com']],
      ['axb', ['axb@example.com', 'AXB@Example.org']],
      ['EXAMPLE.COM', ['a%b@example.com', 'a_b@example.com', 'axb@example.com']],
    ];
    for (const [needle, expected] of cases) {
      const page = await json(await call(h, 'GET', `/v1/imports?limit=100&userEmail=${encodeURIComponent(needle)}`, { key: env.secretKey }));
      const found = page.data.map((i: any) => emails[created.findIndex((c) => c.id === i.id)]);
      assert.deepEqual(found.sort(), [...expected].sort(), needle);
      assert.equal(page.pagination.filters.userEmail, needle);
    }
    for (const i of emails.keys()) await set(null, created[i].id);
  });

  it('never lists another account’s imports or imports still being written', async () => {
    const otherPage = await json(await call(h, 'GET', '/v1/imports', { key: other.secretKey }));
    assert.equal(otherPage.data.length, 1);
    assert.ok(!created.some((c) => c.id === otherPage.data[0].id));
    await h.sql("UPDATE imports SET status = 'writing' WHERE id = ?", created[5].id);
    const page = await json(await call(h, 'GET', '/v1/imports?limit=100', { key: env.secretKey }));
    assert.equal(page.pagination.paging.total, IMPORTS - 1);
    assert.ok(!page.data.some((i: any) => i.id === created[5].id));
    assert.equal((await call(h, 'GET', `/v1/imports/${created[5].id}`, { key: env.secretKey })).status, 404);
    await h.sql("UPDATE imports SET status = 'complete' WHERE id = ?", created[5].id);
  });

  it('plans every sort and filter on an index: no full scan, no sort step, no OFFSET', sqliteOnly, () => {
    const filterSets: ImportFilters[] = [
      {},
      { templateId: '01a20000-0000-7000-8000-000000000000' },
      { startDate: '2026-01-01T00:00:00.000Z', endDate: '2026-02-01T00:00:00.000Z' },
      { userEmail: 'example' },
      { environment: 'production' },
      { templateId: '01a20000-0000-7000-8000-000000000000', userEmail: 'x', environment: 'production', startDate: '2026-01-01T00:00:00.000Z' },
      { status: 'pending_review' },
      { status: 'rejected' },
      { status: 'completed' },
    ];
    const planOf = (query: { toSQL(): { sql: string; params: unknown[] } }) => {
      const { sql, params } = query.toSQL();
      const plan = h.storage.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as unknown[])) as { detail: string }[];
      return plan.map((step) => step.detail).join('\n');
    };
    for (const filters of filterSets) {
      for (const orderBy of ['createdAt', 'updatedAt'] as const) {
        for (const direction of ['asc', 'desc'] as const) {
          for (const after of [undefined, { value: '2026-01-15T00:00:00.000Z', id: 'z' }]) {
            const label = JSON.stringify({ filters, orderBy, direction, after: Boolean(after) });
            const plan = planOf(importPageQuery(h.storage.db, env.accountId, { orderBy, direction, after, limit: 21, filters }));
            assert.match(plan, /SEARCH imports USING (COVERING )?INDEX imports_account_/, `${label}\n${plan}`);
            assert.doesNotMatch(plan, /SCAN imports/, `${label}\n${plan}`);
            // Sorting by updatedAt inside a createdAt range: SQLite searches the range and sorts it; the cost
            // follows the range's size, never the page's depth. Every other combination reads in index order.
            const rangeSortedByUpdate = orderBy === 'updatedAt' && Boolean(filters.startDate ?? filters.endDate);
            if (!rangeSortedByUpdate) assert.doesNotMatch(plan, /TEMP B-TREE/, `${label}\n${plan}`);
            assert.doesNotMatch(importPageQuery(h.storage.db, env.accountId, { orderBy, direction, after, limit: 21, filters }).toSQL().sql, /offset/i);
          }
        }
      }
      const count = planOf(countImportsQuery(h.storage.db, env.accountId, filters));
      assert.match(count, /USING (COVERING )?INDEX imports_account_/, `count ${JSON.stringify(filters)}\n${count}`);
      assert.doesNotMatch(count, /SCAN imports/, `count ${JSON.stringify(filters)}\n${count}`);
    }
  });
});
