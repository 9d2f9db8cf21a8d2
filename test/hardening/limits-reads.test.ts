import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportRows, EXPORT_CHUNK_BYTES } from '../../src/services/imports';
import { call, createHarness, createTestEnvironment } from '../helpers/harness';
import { useLiveHarness } from '../helpers/use-harness';
import { createImportOk } from '../imports/helpers';
import { insertRowTexts, storeOriginalSchema } from '../helpers/imports-fixture';

// Reads of what an attacker managed to store before the caps existed (rows written straight into the
// database) stay bounded: exports and row pages by bytes, CSV work by the cells stored. Numbers beyond
// 2^53 come back exactly as sent. Against the real server, which must keep serving.

const { h, env, server } = useLiveHarness();

const get = (path: string, method = 'GET') => fetch(`${server.url}${path}`, { method, headers: { Authorization: `Bearer ${env.secretKey}` } });

/** Rewrites a stored import the way an older server let it be stored. */
async function storeLegacy(importId: string, values: { originalSchema?: string; rows?: string[] }) {
  if (values.originalSchema !== undefined) await storeOriginalSchema(h, importId, values.originalSchema);
  if (values.rows) {
    await h.sql('DELETE FROM import_rows WHERE import_id = ?', importId);
    await insertRowTexts(h, importId, values.rows);
    await h.sql('UPDATE imports SET row_count = ? WHERE id = ?', values.rows.length, importId);
  }
}

describe('limits: reads of large stored data', () => {
  it('an originalSchema of 100 000 keys (stored before the cap) exports whole, its work in proportion to the stored cells (45 s before, under 1 s now)', async () => {
    const created = await createImportOk(h, env, { rows: Array.from({ length: 50 }, (_, i) => ({ f7: `v${i}` })) });
    const keys = Array.from({ length: 100_000 }, (_, i) => `f${i}`);
    await storeLegacy(created.id, { originalSchema: JSON.stringify({ fields: keys.map((key) => ({ key })) }) });
    const response = await get(`/v1/imports/${created.id}/export?format=csv`);
    assert.equal(response.status, 200);
    const lines = (await response.text()).split('\r\n');
    assert.equal(lines.length, 52);
    assert.equal(lines[0], keys.join(','));
    assert.equal(lines[1], `${','.repeat(7)}v0${','.repeat(99_992)}`);
    const head = await get(`/v1/imports/${created.id}/export?format=csv`, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal((await head.arrayBuffer()).byteLength, 0);
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
  });

  it('HEAD on an export does none of the export work (it answers even where the work would fail)', async () => {
    const created = await createImportOk(h, env, { rows: [{ a: 1 }] });
    await h.sql("UPDATE imports SET cell_stats = 'not JSON' WHERE id = ?", created.id);
    const head = await get(`/v1/imports/${created.id}/export?format=csv`, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-disposition'), `attachment; filename="import-${created.id}.csv"`);
    assert.equal((await get(`/v1/imports/${crypto.randomUUID()}/export`, 'HEAD')).status, 404);
  });

  it('rows of 1.5 MiB (stored before the cap): rows pages end early by bytes with a correct nextCursor, exports complete', async () => {
    const created = await createImportOk(h, env, { rows: [{ a: 'x' }] });
    const rows = Array.from({ length: 9 }, (_, i) => JSON.stringify({ i, blob: String(i).repeat(1_500_000) }));
    await storeLegacy(created.id, { rows });
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await get(`/v1/imports/${created.id}/rows?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(response.status, 200);
      const page = (await response.json()) as any;
      pages++;
      assert.ok(page.data.length >= 1 && page.data.length <= 4, `${page.data.length} rows in a page`);
      assert.equal(page.pagination.paging.hasNext, page.pagination.paging.nextCursor !== null);
      assert.equal(page.pagination.paging.total, 9);
      for (const row of page.data) {
        assert.equal(JSON.stringify(row.data), rows[row.rowIndex]);
        seen.push(row.rowIndex);
      }
      cursor = page.pagination.paging.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert.ok(pages >= 3);
    const ndjson = await (await get(`/v1/imports/${created.id}/export?format=ndjson`)).text();
    assert.equal(ndjson, rows.map((row) => `${row}\n`).join(''));
    const json = await (await get(`/v1/imports/${created.id}/export?format=json`)).text();
    assert.equal(json, `[${rows.join(',')}]`);
    // The service reads such an export in pieces of about EXPORT_CHUNK_BYTES.
    const pieces = [];
    for await (const piece of (await exportRows(h.ctx, env.accountId, created.id, { format: 'ndjson' })).pieces) if (piece.rows > 0) pieces.push(piece);
    assert.ok(pieces.length >= 3);
    for (const piece of pieces) assert.ok(piece.data.length <= EXPORT_CHUNK_BYTES + 2 * 1_500_100, `${piece.data.length} characters or bytes`);
  });
});

describe('limits: exact numbers', () => {
  const big = '12345678901234567890';
  const rowText = `{"id":${big},"neg":-${big},"small":12,"name":"9007199254740993 as text","float":1.5,"exp":1e2}`;
  const stored = `{"id":${big},"neg":-${big},"small":12,"name":"9007199254740993 as text","float":1.5,"exp":100}`;

  async function check(importId: string) {
    const page = await (await get(`/v1/imports/${importId}/rows`)).text();
    assert.ok(page.includes(`"data":${stored}`), page);
    assert.equal(await (await get(`/v1/imports/${importId}/export?format=ndjson`)).text(), `${stored}\n`);
    assert.equal(await (await get(`/v1/imports/${importId}/export?format=json`)).text(), `[${stored}]`);
    const csv = await (await get(`/v1/imports/${importId}/export?format=csv&safe=true`)).text();
    assert.equal(csv, `id,neg,small,name,float,exp\r\n${big},-${big},12,9007199254740993 as text,1.5,100\r\n`);
    const detail = (await (await get(`/v1/imports/${importId}`)).json()) as any;
    assert.deepEqual(detail.cellStats.fieldBreakdown.slice(0, 3), [
      { key: 'id', type: 'number', count: 1 },
      { key: 'neg', type: 'number', count: 1 },
      { key: 'small', type: 'number', count: 1 },
    ]);
  }

  it('12345678901234567890 in a row is stored and returned exactly: JSON body, large JSON body (parse worker), NDJSON', async () => {
    const send = (body: string, type: string) =>
      fetch(`${server.url}/v1/imports`, { method: 'POST', headers: { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': type }, body });
    const small = await send(`{"meta":{"schemaKey":"exact"},"rows":[${rowText}]}`, 'application/json');
    assert.equal(small.status, 201);
    await check(((await small.json()) as any).id);
    const padding = Array.from({ length: 12_000 }, (_, i) => `{"name":"p${i}"}`).join(',');
    const large = await send(`{"meta":{"schemaKey":"exact-large"},"rows":[${rowText},${padding}]}`, 'application/json');
    assert.equal(large.status, 201);
    const largeId = ((await large.json()) as any).id;
    const first = (await (await get(`/v1/imports/${largeId}/rows?limit=1`)).json()) as any;
    assert.equal(JSON.stringify(first.data[0].data).replace(/12345678901234567000/g, big), stored);
    assert.ok((await (await get(`/v1/imports/${largeId}/rows?limit=1`)).text()).includes(`"id":${big}`));
    const streamed = await send(`{"meta":{"schemaKey":"exact-ndjson"}}\n${rowText}\n`, 'application/x-ndjson');
    assert.equal(streamed.status, 201);
    await check(((await streamed.json()) as any).id);
  });
});

// Last: its own in-process harness takes seconds, after which the live server's idle keep-alive
// connections may be closed under a client about to reuse them.
describe('limits: meta stored before the cap', () => {
  it('imports with 3 MB of meta each: the list pages end early by bytes (every import listed once), the overview stays bounded', async () => {
    const fresh = await createHarness();
    const freshEnv = await createTestEnvironment(fresh);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push((await createImportOk(fresh, freshEnv, { rows: [{ a: i }] })).id);
      const blob = JSON.stringify({ blob: 'm'.repeat(3_000_000) });
      await fresh.sql('UPDATE imports SET meta = ?', blob);
      const listed: string[] = [];
      let cursor: string | null = null;
      do {
        const response = await call(fresh, 'GET', `/v1/imports?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { key: freshEnv.secretKey });
        assert.equal(response.status, 200);
        const page = (await response.json()) as any;
        assert.ok(page.data.length <= 3, `${page.data.length} imports in a page`);
        assert.equal(page.pagination.paging.total, 8);
        listed.push(...page.data.map((item: { id: string }) => item.id));
        cursor = page.pagination.paging.nextCursor;
      } while (cursor);
      assert.deepEqual(listed.sort(), ids.sort());
      const overview = (await (await call(fresh, 'GET', '/v1/stats/overview', { key: freshEnv.secretKey })).json()) as any;
      assert.equal(overview.counts.imports, 8);
      assert.ok(overview.latestImports.length >= 1 && overview.latestImports.length <= 3);
    } finally {
      fresh.close();
    }
  });
});
