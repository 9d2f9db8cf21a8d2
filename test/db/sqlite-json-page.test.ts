import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { useHarness } from '../helpers/use-harness';
import { sqliteOnly } from '../helpers/test-database';
import { createImportOk } from '../imports/helpers';

// rows.jsonPage on SQLite: the rows' JSON joined in row order by group_concat over an ordered subquery.

describe('SQLite rows.jsonPage', sqliteOnly, () => {
  const { h, env } = useHarness();
  let importId: string;
  const rows = Array.from({ length: 25 }, (_, i) => ({ i, text: i % 2 ? 'é😀' : 'a"b\\c', ...(i === 20 && { big: 'y'.repeat(3000) }) }));
  const itemsOf = (json: Uint8Array) => JSON.parse(`[${Buffer.from(json).toString('utf8')}]`) as { rowIndex: number; data: unknown }[];

  before(async () => {
    importId = (await createImportOk(h, env, { rows })).id;
  });

  it('renders rows past `from` in ascending order, with the last rowIndex and whether more follow', async () => {
    for (const [from, limit] of [[-1, 10], [9, 10], [14, 10], [19, 5], [23, 10], [24, 3]] as const) {
      const page = (await h.ctx.store.rows.jsonPage(importId, from, limit, 1 << 20))!;
      const expected = rows.slice(from + 1, from + 1 + limit);
      assert.deepEqual(itemsOf(page.json), expected.map((data, k) => ({ rowIndex: from + 1 + k, data })), `from ${from}`);
      assert.equal(page.count, expected.length);
      assert.equal(page.lastRowIndex, expected.length ? from + expected.length : undefined);
      assert.equal(page.hasMore, from + limit < rows.length - 1);
    }
  });

  it('the bytes are each stored text as it is, in a page of the rows route shape', async () => {
    const stored = await h.ctx.store.rows.chunk(importId, 'asc', -1, 5, 1 << 20);
    const page = (await h.ctx.store.rows.jsonPage(importId, -1, 5, 1 << 20))!;
    assert.equal(Buffer.from(page.json).toString('utf8'), stored.map((row) => `{"rowIndex":${row.rowIndex},"data":${row.data}}`).join(','));
  });

  it('leaves a page holding a row over floor(maxBytes / limit) bytes to chunk', async () => {
    // Row 20 is over 3 000 bytes: its share is 1 000 bytes in pages of 10 within 10 000, 10 000 alone.
    assert.equal(await h.ctx.store.rows.jsonPage(importId, 14, 10, 10_000), undefined);
    assert.ok(await h.ctx.store.rows.jsonPage(importId, 19, 1, 10_000));
    assert.ok(await h.ctx.store.rows.jsonPage(importId, -1, 10, 10_000));
  });
});
