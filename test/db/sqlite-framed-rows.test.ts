import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { useHarness } from '../helpers/use-harness';
import { sqliteOnly } from '../helpers/test-database';
import { createImportOk } from '../imports/helpers';

// rows.framedChunk on SQLite: each row's text between the frame's two texts, joined in row order by
// group_concat over an ordered subquery, as one blob.

describe('SQLite rows.framedChunk', sqliteOnly, () => {
  const { h, env } = useHarness();
  let importId: string;
  const rows = Array.from({ length: 25 }, (_, i) => ({ i, text: i % 2 ? 'é😀' : 'a"b\\c', ...(i === 20 && { big: 'y'.repeat(3000) }) }));
  const frame = { before: '<', after: '>\n' };

  before(async () => {
    importId = (await createImportOk(h, env, { rows })).id;
  });

  it('frames the stored texts of the rows past `from` in ascending order, with their count and the last rowIndex', async () => {
    for (const [from, limit] of [[-1, 10], [9, 10], [14, 10], [19, 5], [23, 10], [24, 3]] as const) {
      const stored = await h.ctx.store.rows.chunk(importId, 'asc', from, limit, 1 << 20);
      const chunk = (await h.ctx.store.rows.framedChunk(importId, from, limit, 1 << 20, frame))!;
      assert.equal(Buffer.from(chunk.bytes).toString('utf8'), stored.map((row) => `<${row.data}>\n`).join(''), `from ${from}`);
      assert.deepEqual(
        Buffer.from(chunk.bytes).toString('utf8').split('\n').slice(0, -1).map((line) => JSON.parse(line.slice(1, -1))),
        rows.slice(from + 1, from + 1 + limit),
      );
      assert.equal(chunk.count, stored.length);
      assert.equal(chunk.lastRowIndex, stored.at(-1)?.rowIndex);
    }
  });

  it('an empty frame gives the texts back to back', async () => {
    const stored = await h.ctx.store.rows.chunk(importId, 'asc', -1, 3, 1 << 20);
    const chunk = (await h.ctx.store.rows.framedChunk(importId, -1, 3, 1 << 20, { before: '', after: '' }))!;
    assert.equal(Buffer.from(chunk.bytes).toString('utf8'), stored.map((row) => row.data).join(''));
  });

  it('leaves a chunk holding a row over floor(maxBytes / limit) bytes to chunk', async () => {
    // Row 20 is over 3 000 bytes: its share is 1 000 bytes in chunks of 10 within 10 000, 10 000 alone.
    assert.equal(await h.ctx.store.rows.framedChunk(importId, 14, 10, 10_000, frame), undefined);
    assert.equal((await h.ctx.store.rows.framedChunk(importId, 19, 1, 10_000, frame))?.count, 1);
    assert.equal((await h.ctx.store.rows.framedChunk(importId, -1, 10, 10_000, frame))?.count, 10);
  });
});
