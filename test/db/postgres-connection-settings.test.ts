import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runBin, startServe, type ServerProcess } from '../helpers/process';
import { createPgTestDatabase, postgresOnly, type TestDatabase } from '../helpers/test-database';

// IMPORTD_PG_POOL_SIZE and IMPORTD_PG_WRITERS bound a real `importd serve`'s connections (npm run build first:
// the process runs build/importd.cjs).
describe('PostgreSQL connection settings of importd serve', postgresOnly, () => {
  let database: TestDatabase;
  let observer: pg.Pool;
  let node: ServerProcess;
  let key: string;
  before(async () => {
    database = await createPgTestDatabase();
    observer = new pg.Pool({ connectionString: database.url, max: 1 });
    key = JSON.parse(runBin(['env', 'create', 'pools', '--json', '--db', database.url]).stdout).secretKey.key;
    node = await startServe(database.url, { IMPORTD_PG_POOL_SIZE: '2', IMPORTD_PG_WRITERS: '1' });
  });
  after(async () => {
    await node?.stop();
    await observer?.end();
    await database?.drop();
  });

  /** importd's connections to the test database by pool, as PostgreSQL sees them (named by application_name). */
  const connections = async () => {
    const { rows } = await observer.query<{ name: string; n: number }>(
      'SELECT application_name AS name, count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() GROUP BY 1',
    );
    return { queries: rows.find((r) => r.name === 'importd')?.n ?? 0, writers: rows.find((r) => r.name === 'importd writer')?.n ?? 0 };
  };

  it('uses at most IMPORTD_PG_POOL_SIZE connections for queries, however many requests arrive at once', async () => {
    let most = 0;
    const requests = Array.from({ length: 40 }, () => fetch(`${node.url}/v1/imports`, { headers: { Authorization: `Bearer ${key}` } }));
    const watching = (async () => {
      for (let i = 0; i < 20; i++) most = Math.max(most, (await connections()).queries);
    })();
    for (const response of await Promise.all(requests)) assert.equal(response.status, 200);
    await watching;
    most = Math.max(most, (await connections()).queries);
    assert.ok(most >= 1 && most <= 2, `query connections seen: ${most}`);
  });

  /** Resolves once an import's COPY is open on a writer connection (an idle pooled connection does not count). */
  const copyOpen = async () => {
    const copying = async () =>
      (await observer.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'importd writer' AND state = 'active' AND query LIKE 'COPY%'`)).rowCount! > 0;
    for (let i = 0; !(await copying()); i++) {
      assert.ok(i < 600, 'the first import never opened its COPY');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const encoder = new TextEncoder();
  /** An NDJSON import sent as its test tells it: `send` a slice of 600 rows from row `from`, `end` the body. */
  const open = () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const response = fetch(`${node.url}/v1/imports`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-ndjson' },
      body,
      duplex: 'half',
    } as RequestInit);
    // More than one slice of rows: the import's COPY opens on the first.
    const send = (from: number) => controller.enqueue(encoder.encode(Array.from({ length: 600 }, (_, i) => `{"n":${from + i}}\n`).join('')));
    controller.enqueue(encoder.encode(`${JSON.stringify({ meta: { schemaKey: 'pools' } })}\n`));
    send(0);
    let ended = false;
    const end = () => {
      if (!ended) controller.close();
      ended = true;
    };
    return { response, send, end };
  };

  it('writes at most IMPORTD_PG_WRITERS imports at once: a further import waits for the writer connection, then completes', async () => {
    const first = open();
    let second: ReturnType<typeof open> | undefined;
    try {
      for (let i = 0; (await connections()).writers === 0; i++) {
        assert.ok(i < 600, 'the first import never opened its writer connection');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      second = open();
      second.send(600);
      // Had it a connection of its own, the second import's COPY would open within these samples.
      for (let i = 0; i < 20; i++) {
        assert.equal((await connections()).writers, 1);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      // Never left open: the server's shutdown waits for requests in progress.
      first.end();
      second?.end();
    }
    assert.equal((await first.response).status, 201);
    const created = (await (await second.response).json()) as { rowCount: number };
    assert.equal(created.rowCount, 1200);
  });

  /**
   * Once the first import's COPY is open, another import of 1 200 rows is sent whole: it must complete while `holder`
   * is still open (an upload holding the only writer connection would stop it for good).
   */
  const completesBeside = async () => {
    await copyOpen();
    const other = open();
    other.send(600);
    other.end();
    const waited = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 20_000).unref());
    const status = await Promise.race([other.response.then((r) => r.status), waited]);
    assert.equal(status, 201);
    assert.equal(((await (await other.response).json()) as { rowCount: number }).rowCount, 1200);
  };

  it('an upload that pauses hands its writer connection over: another import completes meanwhile, then it goes on', async () => {
    const paused = open();
    try {
      await completesBeside();
      paused.send(600);
    } finally {
      paused.end();
    }
    const created = (await (await paused.response).json()) as { id: string; rowCount: number };
    assert.equal(created.rowCount, 1200);
    const exported = await fetch(`${node.url}/v1/imports/${created.id}/export?format=ndjson`, { headers: { Authorization: `Bearer ${key}` } });
    assert.deepEqual((await exported.text()).trim().split('\n').map((line) => (JSON.parse(line) as { n: number }).n), Array.from({ length: 1200 }, (_, i) => i));
  });

  it('an upload that never pauses shares the writer connection with imports waiting for it', async () => {
    const steady = open();
    let sent = 600;
    let sending = true;
    const sender = (async () => {
      while (sending) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (sending) steady.send((sent += 600) - 600);
      }
    })();
    try {
      await completesBeside();
    } finally {
      sending = false;
      await sender;
      steady.end();
    }
    assert.equal(((await (await steady.response).json()) as { rowCount: number }).rowCount, sent);
  });
});
