import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { listRows, type JsonBody } from '../../src/services/imports';
import type { ServiceContext } from '../../src/services/context';
import { call } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { testEngine } from '../helpers/test-database';
import { createImportOk } from './helpers';

// A rows page the store renders (rows.jsonPage: SQLite builds the rows' JSON as one blob) must be the very
// bytes of the page rendered row by row (rows.chunk + rowPageJson), on every page of every walk.

const bytesOf = (body: JsonBody) => (typeof body === 'string' ? Buffer.from(body) : Buffer.concat(body));

describe('rows pages rendered by the store', () => {
  const { h, env } = useHarness();
  let rowByRow: ServiceContext;
  let importId: string;
  let accountId: string;
  // Over a 100-row page's share of its 4 MiB budget (41 943 bytes), within a 7-row page's.
  const big = 'x'.repeat(50_000);
  const rows = Array.from({ length: 230 }, (_, i) => ({
    n: i,
    text: ['plain', 'Zürich, CH', 'emoji 😀 𝄞 ✓', 'quote " back \\ slash', 'tab\there\nnewline\r', 'nul \u0000 char', '\u2028\u2029'][i % 7],
    ...(i === 150 && { big }),
    ...(i === 3 && { ['__proto__']: 'kept', constructor: 1 }),
    none: i % 5 === 0 ? null : i % 3 === 0,
  }));

  before(async () => {
    const created = await createImportOk(h, env, { rows });
    importId = created.id;
    accountId = env.accountId;
    rowByRow = { ...h.ctx, store: { ...h.ctx.store, rows: { ...h.ctx.store.rows, jsonPage: async () => undefined } } };
  });

  for (const limit of [1, 7, 100]) {
    it(`every page of a walk with limit ${limit} is the same bytes, rendered or row by row`, async () => {
      let cursor: string | undefined;
      let rendered = 0;
      let seen = 0;
      for (;;) {
        const query = { limit: String(limit), ...(cursor !== undefined && { cursor }) };
        const page = await listRows(h.ctx, accountId, importId, query);
        const expected = await listRows(rowByRow, accountId, importId, query);
        assert.equal(typeof expected, 'string');
        assert.deepEqual(bytesOf(page), bytesOf(expected), `page after ${cursor}`);
        if (typeof page !== 'string') rendered++;
        const parsed = JSON.parse(bytesOf(page).toString('utf8'));
        seen += parsed.data.length;
        if (!parsed.pagination.paging.hasNext) break;
        cursor = parsed.pagination.paging.nextCursor;
      }
      assert.equal(seen, rows.length);
      // SQLite renders them (all but the 100-row page holding the big row); PostgreSQL reads row by row.
      if (testEngine === 'sqlite') assert.ok(rendered >= Math.ceil(rows.length / limit) - 1, `${rendered} rendered`);
      else assert.equal(rendered, 0);
    });
  }

  it('descending pages are read row by row, as before', async () => {
    for (const query of [{ direction: 'desc', limit: '100' }, { sortBy: 'rowIndex', direction: 'desc', limit: '3' }] as const) {
      const page = await listRows(h.ctx, accountId, importId, query);
      assert.equal(typeof page, 'string');
      assert.deepEqual(page, await listRows(rowByRow, accountId, importId, query));
    }
  });

  it('the HTTP answer of a rendered page is those bytes', async () => {
    const response = await call(h, 'GET', `/v1/imports/${importId}/rows?limit=7`, { key: env.secretKey });
    assert.equal(response.status, 200);
    const body = Buffer.from(await response.arrayBuffer());
    assert.deepEqual(body, bytesOf(await listRows(rowByRow, accountId, importId, { limit: '7' })));
    assert.equal(response.headers.get('content-type'), 'application/json');
  });
});
