import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { validTheme } from '../helpers/fixtures';
import { call, createHarness, createTestEnvironment, type Harness, type TestEnvironment } from '../helpers/harness';
import { startServe, type ServerProcess } from '../helpers/process';
import { onPostgres } from '../helpers/nodes';
import { readEvents } from '../helpers/sse';
import { createPgTestDatabase } from '../helpers/test-database';

// Several real `importd serve` processes on one PostgreSQL database (npm run test:pg; skipped on SQLite, where
// one database file is served by one node). IMPORTD_TEST_NODES sets how many, as a list of counts each run in
// turn (2 or more each; default "2,3").
const NODE_COUNTS = (process.env.IMPORTD_TEST_NODES ?? '2,3').split(',').map((n) => Math.max(2, Number(n) || 2));
// A short lease, so a killed node's import is cleaned up within seconds.
const NODE_SETTINGS = { IMPORTD_RATE_LIMIT: '0', IMPORTD_LEASE_SECONDS: '3' };

interface Ask {
  key?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

const ask = (node: ServerProcess, method: string, path: string, options: Ask = {}) =>
  fetch(`${node.url}${path}`, {
    method,
    headers: {
      ...(options.key ? { Authorization: `Bearer ${options.key}` } : {}),
      ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });

const rowsOf = (count: number, tag = 'r') => Array.from({ length: count }, (_, i) => ({ n: i, name: `${tag} ${i}` }));

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

for (const NODES of NODE_COUNTS) {
  describe(`${NODES} importd serve nodes on one PostgreSQL database`, onPostgres, () => {
    let h: Harness;
    let env: TestEnvironment;
    let nodes: ServerProcess[] = [];
    const extra: ServerProcess[] = [];
    const count = async (sqlText: string, ...params: unknown[]) => (await h.sql<{ n: number }>(sqlText, ...params))[0]!.n;
    const storedRows = (id: string) => count('SELECT count(*) AS n FROM import_rows WHERE import_id = ?', id);
    const importsOf = (id: string) => count('SELECT count(*) AS n FROM imports WHERE id = ?', id);
    // An import's rows stay uncommitted until it completes (one COPY in one transaction): its progress is read
    // from the server's COPY progress view instead.
    const copyingRows = () => count('SELECT coalesce(max(tuples_processed), 0) AS n FROM pg_stat_progress_copy WHERE datname = current_database()');
    const writingIds = async () => (await h.sql<{ id: string }>("SELECT id FROM imports WHERE status = 'writing'")).map((row) => row.id);
    const post = (node: ServerProcess, rows: unknown[], key = env.secretKey) => ask(node, 'POST', '/v1/imports', { key, body: { meta: { schemaKey: 'nodes' }, rows } });
    const start = async (settings: Record<string, string> = NODE_SETTINGS) => {
      const node = await startServe(h.dbPath, settings);
      extra.push(node);
      return node;
    };

    before(async () => {
      h = await createHarness();
      env = await createTestEnvironment(h);
      assert.equal((await call(h, 'POST', '/v1/themes', { key: env.secretKey, body: validTheme() })).status, 201);
      nodes = await Promise.all(Array.from({ length: NODES }, () => startServe(h.dbPath, NODE_SETTINGS)));
    });
    after(async () => {
      await Promise.all([...nodes, ...extra].map((node) => (node.child.exitCode === null ? node.stop() : undefined)));
      await h?.close();
    });

    it('an import posted on one node reads the same on every other', async () => {
      const response = await post(nodes[0]!, rowsOf(25));
      assert.equal(response.status, 201);
      const { id } = (await response.json()) as { id: string };
      const details = await Promise.all(nodes.map(async (node) => await (await ask(node, 'GET', `/v1/imports/${id}`, { key: env.secretKey })).text()));
      assert.equal(new Set(details).size, 1, 'byte-identical on every node');
      assert.equal(JSON.parse(details[0]!).cellStats.rowCount, 25);
      const exported = await (await ask(nodes.at(-1)!, 'GET', `/v1/imports/${id}/export?format=ndjson`, { key: env.secretKey })).text();
      assert.deepEqual(exported.trim().split('\n').map((line) => JSON.parse(line)), rowsOf(25));
    });

    it('a list cursor from one node pages on the next', async () => {
      const listEnv = await createTestEnvironment(h, { account: 'cursor-co' });
      const created: string[] = [];
      for (let i = 0; i < 7; i++) {
        const response = await post(nodes[i % NODES]!, rowsOf(2), listEnv.secretKey);
        created.push(((await response.json()) as { id: string }).id);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; ; page++) {
        const query = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
        const response = await ask(nodes[page % NODES]!, 'GET', `/v1/imports${query}`, { key: listEnv.secretKey });
        assert.equal(response.status, 200);
        const body = (await response.json()) as { data: { id: string }[]; pagination: { paging: { nextCursor: string | null; total: number } } };
        assert.equal(body.pagination.paging.total, 7);
        seen.push(...body.data.map((item) => item.id));
        cursor = body.pagination.paging.nextCursor;
        if (!cursor) break;
      }
      assert.deepEqual(seen, [...created].reverse());
    });

    it('a session revoked on one node is refused on every other at once; a rolled key too', async () => {
      const session = await ask(nodes[0]!, 'POST', '/v1/sessions', { key: env.secretKey, body: { endUserId: 'alice' } });
      assert.equal(session.status, 201);
      const { sessionToken } = (await session.json()) as { sessionToken: string };
      const jti = JSON.parse(Buffer.from(sessionToken.split('.')[1]!, 'base64url').toString()).jti as string;
      const asEndUser = (node: ServerProcess) =>
        ask(node, 'POST', '/v1/imports', {
          headers: { 'X-Public-Key': env.publicKey, Origin: env.origin, 'X-Session-Token': sessionToken },
          body: { meta: { schemaKey: 'nodes' }, rows: rowsOf(1) },
        });
      assert.equal((await asEndUser(nodes[1]!)).status, 201);
      assert.equal((await ask(nodes[0]!, 'DELETE', `/v1/sessions/${jti}`, { key: env.secretKey })).status, 200);
      for (const node of nodes.slice(1)) {
        const refused = await asEndUser(node);
        assert.equal(refused.status, 401);
        assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'invalid_session');
      }

      const rolled = await createTestEnvironment(h, { name: 'rolled' });
      assert.equal((await ask(nodes[1]!, 'GET', '/v1/environments', { key: rolled.secretKey })).status, 200);
      const roll = await ask(nodes[0]!, 'POST', '/v1/environments/rolled/keys/roll', { key: rolled.secretKey, body: { kind: 'secret' } });
      assert.equal(roll.status, 201);
      const fresh = ((await roll.json()) as { key: { key: string } }).key.key;
      for (const node of nodes.slice(1)) {
        assert.equal((await ask(node, 'GET', '/v1/environments', { key: rolled.secretKey })).status, 401, 'the old key is refused');
        assert.equal((await ask(node, 'GET', '/v1/environments', { key: fresh })).status, 200);
      }
    });

    it("a theme changed on one node reaches a stream open on another at once, and every node's ETag", async () => {
      const stream = await ask(nodes[1]!, 'GET', '/v1/themes/events', { headers: { 'X-Public-Key': env.publicKey, Origin: env.origin } });
      assert.equal(stream.status, 200);
      const events = readEvents(stream);
      await events.next('theme');
      const before = await ask(nodes.at(-1)!, 'GET', '/v1/themes', { key: env.secretKey });
      const oldTag = before.headers.get('ETag')!;
      await before.text();
      const put = await ask(nodes[0]!, 'PUT', '/v1/themes', { key: env.secretKey, body: validTheme({ name: 'Changed on node 1' }) });
      assert.equal(put.status, 200);
      const newTag = put.headers.get('ETag');
      // PostgreSQL's notices cross nodes, so no poller runs there: only the notice can bring this event.
      assert.equal((await events.next('theme')).name, 'Changed on node 1');
      await events.cancel();
      for (const node of nodes) {
        const stale = await ask(node, 'GET', '/v1/themes', { key: env.secretKey, headers: { 'If-None-Match': oldTag } });
        assert.equal(stale.status, 200);
        assert.equal(stale.headers.get('ETag'), newTag);
        assert.equal(((await stale.json()) as { name: string }).name, 'Changed on node 1');
        assert.equal((await ask(node, 'GET', '/v1/themes', { key: env.secretKey, headers: { 'If-None-Match': newTag! } })).status, 304);
      }
    });

    it('the rate limit is shared: the sum across nodes is limited', async () => {
      const limit = 10;
      const limited = await Promise.all(
        Array.from({ length: NODES }, () => start({ ...NODE_SETTINGS, IMPORTD_RATE_LIMIT: String(limit), IMPORTD_RATE_WINDOW_SECONDS: '3600' })),
      );
      const limitedEnv = await createTestEnvironment(h, { account: 'limited-co' });
      const hour = () => Math.floor(Date.now() / 3_600_000);
      const startedIn = hour();
      const statuses: number[] = [];
      for (let i = 0; i < limit * NODES; i++) {
        const response = await ask(limited[i % NODES]!, 'GET', '/v1/environments', { key: limitedEnv.secretKey });
        await response.text();
        statuses.push(response.status);
      }
      const accepted = statuses.filter((status) => status === 200).length;
      assert.equal(statuses.filter((status) => status !== 200 && status !== 429).length, 0);
      // A window boundary crossed mid-test (an hour) lets the fixed window count twice; otherwise exactly the limit.
      if (hour() === startedIn) assert.equal(accepted, limit);
      else assert.ok(accepted <= 2 * limit);
      await Promise.all(limited.map((node) => node.stop()));
    });

    it('a node joining (its start-up clean-up included) while another writes an import leaves it intact', async () => {
      // The import is an NDJSON stream held open halfway until the node has joined: however fast the writer,
      // the node joins while it is written (a large JSON body was sometimes written whole before a node started).
      const BIG = 100_000;
      const lines = rowsOf(BIG, 'big').map((row) => `${JSON.stringify(row)}\n`);
      let release!: () => void;
      const joinedYet = new Promise<void>((resolve) => (release = resolve));
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode(`${JSON.stringify({ meta: { schemaKey: 'nodes' } })}\n${lines.slice(0, BIG / 2).join('')}`));
          await joinedYet;
          controller.enqueue(encoder.encode(lines.slice(BIG / 2).join('')));
          controller.close();
        },
      });
      const writing = fetch(`${nodes[0]!.url}/v1/imports`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': 'application/x-ndjson' },
        body,
        duplex: 'half',
      } as RequestInit);
      await until(async () => (await copyingRows()) > 0, 60_000, 'the import to start');
      const joined = await start();
      const stillWriting = await count("SELECT count(*) AS n FROM imports WHERE status = 'writing'");
      release();
      const response = await writing;
      assert.equal(response.status, 201, await response.clone().text());
      const { id } = (await response.json()) as { id: string };
      assert.equal(await storedRows(id), BIG);
      const detail = (await (await ask(joined, 'GET', `/v1/imports/${id}`, { key: env.secretKey })).json()) as { cellStats: { rowCount: number } };
      assert.equal(detail.cellStats.rowCount, BIG);
      assert.ok(!joined.output().includes('removed imports left unfinished'), 'the joining node removed nothing');
      assert.equal(stillWriting, 1);
    });

    it('concurrent writers on every node: each import whole, read back whole from another node', async () => {
      const perNode = 3;
      const responses = await Promise.all(Array.from({ length: perNode * NODES }, (_, i) => post(nodes[i % NODES]!, rowsOf(3000, `w${i}`))));
      const ids: string[] = [];
      for (const response of responses) {
        assert.equal(response.status, 201);
        ids.push(((await response.json()) as { id: string }).id);
      }
      for (const [i, id] of ids.entries()) {
        assert.equal(await storedRows(id), 3000);
        const reader = nodes[(i + 1) % NODES]!;
        const exported = await (await ask(reader, 'GET', `/v1/imports/${id}/export?format=ndjson`, { key: env.secretKey })).text();
        assert.deepEqual(exported.trim().split('\n').map((line) => JSON.parse(line)), rowsOf(3000, `w${i}`));
      }
    });

    it('SIGKILL of a node mid-import: nothing of it visible on the others, its rows removed once its lease has run out', async () => {
      const victim = await start();
      const writing = post(victim, rowsOf(300_000, 'victim')).then(
        (response) => `answered ${response.status}`,
        () => 'connection lost',
      );
      await until(async () => (await copyingRows()) >= 20_000, 60_000, 'the victim to send rows');
      const [id] = await writingIds();
      assert.ok(id);
      await victim.stop('SIGKILL');
      assert.equal(await writing, 'connection lost', 'the import finished before the kill: nothing was tested');
      for (const node of nodes) {
        assert.equal((await ask(node, 'GET', `/v1/imports/${id}`, { key: env.secretKey })).status, 404);
        const list = (await (await ask(node, 'GET', '/v1/imports?limit=100', { key: env.secretKey })).json()) as { data: { id: string }[] };
        assert.ok(!list.data.some((item) => item.id === id));
      }
      assert.equal(await storedRows(id), 0, 'no row of it was committed');
      await until(async () => (await importsOf(id)) === 0, 60_000, "the dead node's import to be removed");
      const survivors = [...nodes, ...extra].filter((node) => node !== victim);
      // The log line follows the removal's commit through the node's stdout pipe: it may arrive a moment later.
      await until(async () => survivors.some((node) => node.output().includes('removed imports left unfinished by a stopped node')), 10_000, 'the removal to be logged');
    });
  });

  describe(`${NODES} nodes starting together on an empty PostgreSQL database`, onPostgres, () => {
    it('all come up; the migrations are applied once, under the advisory lock', async () => {
      const database = await createPgTestDatabase({ migrated: false });
      const nodes: ServerProcess[] = [];
      try {
        nodes.push(...(await Promise.all(Array.from({ length: NODES }, () => startServe(database.url, NODE_SETTINGS)))));
        for (const node of nodes) assert.equal((await fetch(`${node.url}/healthz`)).status, 200);
        const client = new pg.Client(database.url);
        await client.connect();
        try {
          const applied = await client.query('SELECT hash, count(*)::int AS n FROM drizzle.__drizzle_migrations GROUP BY hash');
          assert.ok(applied.rows.length >= 2);
          assert.ok(applied.rows.every((row: { n: number }) => row.n === 1), 'each migration applied once');
        } finally {
          await client.end();
        }
      } finally {
        await Promise.all(nodes.map((node) => node.stop()));
        await database.drop();
      }
    });
  });
}
