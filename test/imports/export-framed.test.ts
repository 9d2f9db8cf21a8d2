import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { EXPORT_CHUNK_BYTES, EXPORT_CHUNK_ROWS, exportRows } from '../../src/services/imports';
import type { ServiceContext } from '../../src/services/context';
import { call } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { testEngine } from '../helpers/test-database';
import { createImportOk } from './helpers';

// An NDJSON or JSON export whose chunks the store frames (rows.framedChunk: SQLite joins a chunk's rows as one
// blob) must be the very bytes of the export encoded row by row (rows.chunk), whichever chunks fall back to
// rows.chunk (a row over its share of the chunk's budget).

describe('exports framed by the store', () => {
  const { h, env } = useHarness();
  let rowByRow: ServiceContext;
  // Over a 1 000-row chunk's share of its 4 MiB budget (4 194 bytes).
  const big = 'x'.repeat(Math.floor(EXPORT_CHUNK_BYTES / EXPORT_CHUNK_ROWS) + 10);
  const rowsWithBigAt = (at: number) =>
    Array.from({ length: 2_500 }, (_, i) => ({
      n: i,
      text: ['plain', 'Zürich, CH', 'emoji 😀 𝄞 ✓', 'quote " back \\ slash', 'tab\there\nnewline\r', '\u2028\u2029'][i % 6],
      ...(i === at && { big }),
    }));
  // The big row in the second chunk (framed, row by row, framed), then in the first (row by row, then framed).
  const imports: { id: string; rows: unknown[] }[] = [];

  before(async () => {
    for (const at of [1_500, 3]) {
      const rows = rowsWithBigAt(at);
      imports.push({ id: (await createImportOk(h, env, { rows })).id, rows });
    }
    rowByRow = { ...h.ctx, store: { ...h.ctx.store, rows: { ...h.ctx.store.rows, framedChunk: async () => undefined } } };
  });

  async function exported(ctx: ServiceContext, importId: string, format: 'ndjson' | 'json') {
    const pieces: (string | Uint8Array)[] = [];
    for await (const piece of (await exportRows(ctx, env.accountId, importId, { format })).pieces) pieces.push(piece.data);
    return { bytes: Buffer.concat(pieces.map((data) => (typeof data === 'string' ? Buffer.from(data) : data))), framed: pieces.filter((data) => typeof data !== 'string').length };
  }

  for (const format of ['ndjson', 'json'] as const) {
    it(`${format}: the same bytes framed or row by row, every row once in order`, async () => {
      for (const { id, rows } of imports) {
        const framed = await exported(h.ctx, id, format);
        const expected = await exported(rowByRow, id, format);
        assert.equal(expected.framed, 0);
        assert.deepEqual(framed.bytes, expected.bytes);
        const text = framed.bytes.toString('utf8');
        assert.deepEqual(format === 'json' ? JSON.parse(text) : text.split('\n').slice(0, -1).map((line) => JSON.parse(line)), rows);
        // SQLite frames the two chunks without the big row; PostgreSQL reads row by row.
        assert.equal(framed.framed, testEngine === 'sqlite' ? 2 : 0);
      }
    });
  }

  it('an import without rows exports an empty file and an empty array', async () => {
    const { id } = await createImportOk(h, env, { rows: [] });
    assert.equal((await exported(h.ctx, id, 'ndjson')).bytes.length, 0);
    assert.equal((await exported(h.ctx, id, 'json')).bytes.toString(), '[]');
  });

  it('the HTTP answer is those bytes', async () => {
    const { id } = imports[0]!;
    for (const format of ['ndjson', 'json'] as const) {
      const response = await call(h, 'GET', `/v1/imports/${id}/export?format=${format}`, { key: env.secretKey });
      assert.equal(response.status, 200);
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), (await exported(rowByRow, id, format)).bytes);
    }
  });
});
