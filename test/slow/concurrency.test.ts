import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHarness, createTestEnvironment, type Harness, type TestEnvironment } from '../helpers/harness';
import { runBinAsync, startServe, type ServerProcess } from '../helpers/process';
import { testEngine } from '../helpers/test-database';

const WRITERS = 10;
const READERS = 10;
const DURATION_MS = 10_000;

interface Stored {
  id: string;
  rows: { w: number; n: number; i: number; text: string }[];
}

describe('20 concurrent writers and readers against ./bin/importd serve', () => {
  let h: Harness;
  let env: TestEnvironment;
  let server: ServerProcess;
  before(async () => {
    h = await createHarness();
    env = await createTestEnvironment(h);
    if (testEngine === 'sqlite') h.storage.close();
    server = await startServe(h.dbPath, { IMPORTD_RATE_LIMIT: '0', IMPORTD_LOG_LEVEL: 'warn' });
  });
  after(async () => {
    await server?.stop();
    h.close();
  });

  it('stores every accepted import completely, serves consistent reads, and never a 5xx or SQLITE_BUSY', async () => {
    const headers = { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': 'application/json' };
    const stored: Stored[] = [];
    const problems: string[] = [];
    const counts = { writes: 0, reads: 0, pages: 0, cliWrites: 0 };
    const deadline = Date.now() + DURATION_MS;
    const check = async (response: Response, what: string) => {
      const text = await response.text();
      if (response.status >= 500 || /SQLITE|database is locked/i.test(text)) problems.push(`${what}: ${response.status} ${text.slice(0, 200)}`);
      return text;
    };

    const writer = async (w: number) => {
      for (let n = 0; Date.now() < deadline; n++) {
        const size = 1 + ((w * 7919 + n * 104_729) % 3000);
        const rows = Array.from({ length: size }, (_, i) => ({ w, n, i, text: `writer ${w} import ${n} row ${i} ✓` }));
        const response = await fetch(`${server.url}/v1/imports`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ rows, meta: { schemaKey: `load-${w % 3}` }, originalSchema: { key: `load-${w % 3}` } }),
        });
        const text = await check(response, 'POST /v1/imports');
        if (response.status === 201) {
          const created = JSON.parse(text) as { id: string; rowCount: number };
          if (created.rowCount !== size) problems.push(`rowCount ${created.rowCount} for ${size} rows`);
          stored.push({ id: created.id, rows });
          counts.writes++;
        } else if (response.status < 500) problems.push(`POST /v1/imports answered ${response.status}: ${text.slice(0, 200)}`);
      }
    };

    const reader = async (r: number) => {
      while (Date.now() < deadline) {
        const list = await fetch(`${server.url}/v1/imports?limit=20`, { headers });
        await check(list, 'GET /v1/imports');
        counts.reads++;
        const known = stored[(r * 31 + counts.reads) % Math.max(1, stored.length)];
        if (!known) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        const detail = await fetch(`${server.url}/v1/imports/${known.id}`, { headers });
        const detailBody = JSON.parse(await check(detail, 'GET /v1/imports/{id}')) as { cellStats: { rowCount: number } };
        // Walk the rows with keyset pages: every page in order, all rows there, exactly as posted.
        let served = 0;
        let cursor: string | null = null;
        do {
          const page: Response = await fetch(`${server.url}/v1/imports/${known.id}/rows?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers });
          const body = JSON.parse(await check(page, 'GET /v1/imports/{id}/rows')) as {
            data: { rowIndex: number; data: unknown }[];
            pagination: { paging: { nextCursor: string | null } };
          };
          for (const row of body.data) {
            if (row.rowIndex !== served) problems.push(`row ${row.rowIndex} served where ${served} was due`);
            else if (JSON.stringify(row.data) !== JSON.stringify(known.rows[served])) problems.push(`row ${served} of ${known.id} differs`);
            served++;
          }
          cursor = body.pagination.paging.nextCursor;
          counts.pages++;
        } while (cursor && Date.now() < deadline + 5_000);
        if (served !== known.rows.length || detailBody.cellStats.rowCount !== served) {
          problems.push(`import ${known.id}: rowCount ${detailBody.cellStats.rowCount}, ${served} rows served, ${known.rows.length} posted`);
        }
      }
    };

    // A second process writing the same database: the lock contention a single process never has.
    const cli = async () => {
      while (Date.now() < deadline) {
        const result = await runBinAsync(['session', 'issue', '--env', env.name, '--end-user', `cli-${counts.cliWrites}`, '--db', h.dbPath]);
        if (result.code !== 0 || /SQLITE|locked/i.test(result.stderr)) problems.push(`CLI: ${result.code} ${result.stderr}`);
        counts.cliWrites++;
      }
    };

    await Promise.all([
      ...Array.from({ length: WRITERS }, (_, w) => writer(w)),
      ...Array.from({ length: READERS }, (_, r) => reader(r)),
      cli(),
    ]);
    assert.deepEqual(problems.slice(0, 10), []);
    assert.ok(counts.writes >= 20 && counts.reads >= 20, JSON.stringify(counts));

    // Every accepted import, in full, after the load.
    for (const { id, rows } of stored) {
      const response = await fetch(`${server.url}/v1/imports/${id}/export?format=ndjson`, { headers });
      const lines = (await response.text()).trim().split('\n');
      assert.equal(lines.length, rows.length, id);
      assert.deepEqual(lines.map((line) => JSON.parse(line)), rows);
    }
    assert.doesNotMatch(server.output(), /SQLITE_BUSY|database is locked/);
    console.log(`# concurrency: ${JSON.stringify(counts)} in ${DURATION_MS} ms`);
  });
});
