import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { listTemplateRows } from '../../src/db/sqlite/queries/templates';
import { createTemplate, updateTemplate } from '../../src/services/templates';
import { sqliteOnly } from '../helpers/test-database';
import { call, createHarness, createTestEnvironment, json, testClock } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

const SUMMARY_MEMBERS = ['clientId', 'createdAt', 'id', 'key', 'metadata', 'source', 'updatedAt'];

describe('GET /v1/templates', () => {
  const clock = testClock();
  const { h, env, other } = useHarness({ clock, environments: { other: { account: 'other-account' } } });
  const ids: string[] = [];
  const list = async (query: string, key = env.secretKey) => {
    const response = await call(h, 'GET', `/v1/templates${query}`, { key });
    return { status: response.status, body: await json(response) };
  };
  /** Follows nextCursor from the first page to the last and returns every page. */
  const walk = async (query: string) => {
    const pages = [];
    let cursor: string | null = null;
    do {
      const { status, body } = await list(`${query}${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(status, 200);
      pages.push(body);
      cursor = body.pagination.paging.nextCursor;
    } while (cursor);
    return pages;
  };

  before(async () => {
    for (let i = 0; i < 25; i++) {
      // Two templates per millisecond: the id breaks ties in the sort.
      if (i % 2 === 0) clock.advance(1);
      ids.push((await createTemplate(h.ctx, env.accountId, { schema: { big: 'x'.repeat(100) }, key: `t${i}` })).id);
    }
    await createTemplate(h.ctx, other.accountId, { schema: {}, key: 'foreign' });
  });

  it('pages newest first by default, 20 a page, with the spec envelope and no schemas', async () => {
    const { status, body } = await list('');
    assert.equal(status, 200);
    assert.equal(body.data.length, 20);
    assert.deepEqual(Object.keys(body.data[0]).sort(), SUMMARY_MEMBERS);
    assert.deepEqual(
      body.data.map((t: { id: string }) => t.id),
      [...ids].reverse().slice(0, 20),
    );
    assert.deepEqual(body.pagination.paging, { limit: 20, count: 20, cursor: null, nextCursor: body.pagination.paging.nextCursor, hasNext: true, total: 25 });
    assert.equal(typeof body.pagination.paging.nextCursor, 'string');
    assert.deepEqual(body.pagination.filters, {});
    assert.deepEqual(body.pagination.sort, { orderBy: 'createdAt', direction: 'desc' });
  });

  for (const direction of ['desc', 'asc'] as const) {
    it(`walks every template exactly once by cursor (${direction}, limit 10)`, async () => {
      const pages = await walk(`?limit=10&direction=${direction}`);
      assert.deepEqual(pages.map((p) => p.data.length), [10, 10, 5]);
      assert.deepEqual(pages.map((p) => p.pagination.paging.hasNext), [true, true, false]);
      assert.equal(pages[2].pagination.paging.nextCursor, null);
      assert.equal(pages[1].pagination.paging.cursor, pages[0].pagination.paging.nextCursor);
      const seen = pages.flatMap((p) => p.data.map((t: { id: string }) => t.id));
      assert.deepEqual(seen, direction === 'asc' ? ids : [...ids].reverse());
    });
  }

  it('orders by updatedAt when asked', async () => {
    clock.advance(10_000);
    await updateTemplate(h.ctx, env.accountId, ids[3]!, { schema: { touched: true } });
    const { body } = await list('?orderBy=updatedAt&limit=2');
    assert.equal(body.data[0].id, ids[3]);
    assert.deepEqual(body.pagination.sort, { orderBy: 'updatedAt', direction: 'desc' });
    const pages = await walk('?orderBy=updatedAt&direction=asc&limit=7');
    const seen = pages.flatMap((p) => p.data.map((t: { id: string }) => t.id));
    assert.equal(seen.length, 25);
    assert.equal(seen[24], ids[3]);
    assert.equal(new Set(seen).size, 25);
  });

  it('answers only the total for limit=0', async () => {
    const { status, body } = await list('?limit=0');
    assert.equal(status, 200);
    assert.deepEqual(body.data, []);
    assert.deepEqual(body.pagination.paging, { limit: 0, count: 0, cursor: null, nextCursor: null, hasNext: false, total: 25 });
  });

  it('accepts limit 1 and 100, and an empty or null cursor as the first page', async () => {
    assert.equal((await list('?limit=1')).body.data.length, 1);
    assert.equal((await list('?limit=100')).body.data.length, 25);
    for (const cursor of ['', 'null']) {
      const { status, body } = await list(`?cursor=${cursor}`);
      assert.equal(status, 200);
      assert.equal(body.data[0].id, ids[24]);
    }
  });

  it("shows each account only its own templates", async () => {
    const { body } = await list('', other.secretKey);
    assert.equal(body.pagination.paging.total, 1);
    assert.deepEqual(body.data.map((t: { key: string }) => t.key), ['foreign']);
  });

  it('reads a deep page through an index with no sort step, for either order and direction', sqliteOnly, () => {
    for (const orderBy of ['createdAt', 'updatedAt'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const sql = capturedSql(() =>
          listTemplateRows(h.storage.db, env.accountId, { orderBy, direction, after: { value: 'x', id: 'y' }, limit: 21 }),
        );
        const params = Array.from(sql.matchAll(/\?/g), () => 'x');
        const plan = (h.storage.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
          .map((row) => row.detail)
          .join('\n');
        assert.match(plan, new RegExp(`templates_account_${orderBy === 'createdAt' ? 'created' : 'updated'}`), plan);
        assert.doesNotMatch(plan, /TEMP B-TREE/, plan);
      }
    }
  });

  /** The SQL text of the one statement `run` prepares. */
  const capturedSql = (run: () => unknown): string => {
    const prepare = h.storage.sqlite.prepare;
    let seen = '';
    h.storage.sqlite.prepare = ((source: string) => {
      seen = source;
      return prepare.call(h.storage.sqlite, source);
    }) as typeof prepare;
    try {
      run();
    } finally {
      h.storage.sqlite.prepare = prepare;
    }
    return seen;
  };

  const cursorFor = async (query: string) => (await list(query)).body.pagination.paging.nextCursor as string;

  const rejected: [string, string, string][] = [
    ['limit -1', '?limit=-1', 'limit'],
    ['limit 101', '?limit=101', 'limit'],
    ['limit 1.5', '?limit=1.5', 'limit'],
    ['limit not a number', '?limit=ten', 'limit'],
    ['limit empty', '?limit=', 'limit'],
    ['orderBy unknown', '?orderBy=key', 'orderBy'],
    ['direction unknown', '?direction=up', 'direction'],
    ['cursor that does not decode', '?cursor=%%%', 'cursor'],
    ['cursor of valid base64 but not ours', `?cursor=${Buffer.from('{"v":"x","i":"y"}').toString('base64url')}`, 'cursor'],
    ['cursor longer than 512 characters', `?cursor=${'a'.repeat(513)}`, 'cursor'],
  ];
  for (const [name, query, path] of rejected) {
    it(`rejects ${name}: 400 validation_failed at ${path}`, async () => {
      const { status, body } = await list(query);
      assert.equal(status, 400);
      assert.equal(body.error.code, 'validation_failed');
      assert.ok(body.error.details.some((d: { path: string }) => d.path === path), JSON.stringify(body.error.details));
    });
  }

  for (const [name, made, used] of [
    ['another direction', '?limit=5', '&direction=asc'],
    ['another orderBy', '?limit=5', '&orderBy=updatedAt'],
  ]) {
    it(`rejects a cursor made for ${name}`, async () => {
      const cursor = await cursorFor(made!);
      const { status, body } = await list(`?limit=5&cursor=${cursor}${used}`);
      assert.equal(status, 400);
      assert.deepEqual(body.error.details.map((d: { path: string }) => d.path), ['cursor']);
    });
  }

  it('rejects an edited cursor, one made by another server and one replayed by another account', async () => {
    const cursor = await cursorFor('?limit=5');
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    const edited = Buffer.from(JSON.stringify({ ...decoded, v: '2000-01-01T00:00:00.000Z' })).toString('base64url');
    const foreign = await createHarness();
    const otherSecret = await createTestEnvironment(foreign);
    await createTemplate(foreign.ctx, otherSecret.accountId, { schema: {}, key: 'a' });
    await createTemplate(foreign.ctx, otherSecret.accountId, { schema: {}, key: 'b' });
    const resigned = (await json(await call(foreign, 'GET', '/v1/templates?limit=1', { key: otherSecret.secretKey }))).pagination.paging.nextCursor;
    foreign.close();
    for (const [attempt, key] of [[edited, env.secretKey], [resigned, env.secretKey], [cursor, other.secretKey]] as const) {
      const { status, body } = await list(`?limit=5&cursor=${attempt}`, key);
      assert.equal(status, 400);
      assert.equal(body.error.code, 'validation_failed');
      assert.deepEqual(body.error.details.map((d: { path: string }) => d.path), ['cursor']);
    }
    assert.equal((await list(`?limit=5&cursor=${cursor}`)).status, 200);
  });
});
