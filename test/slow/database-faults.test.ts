import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { waitFor } from '../helpers/live-server';
import { pumpImport, type Answer } from '../helpers/ndjson-upload';
import { runBin, startServe, type ServerProcess } from '../helpers/process';
import { postgresOnly } from '../helpers/test-database';
// @ts-expect-error: a plain ES module of the scripts, without types
import { startPgServer } from '../../scripts/pg-server.mjs';

// A PostgreSQL server of this file's own (not the suite's): these tests terminate its backends, restart it and
// freeze it. Run with the PostgreSQL suite (`node scripts/test-pg.mjs test/slow`).
interface PgServer {
  url: string;
  stop(): void;
  restart(): void;
  pids(): number[];
}

let server: PgServer;
let databases = 0;

/** A new database with importd's tables and one environment; returns its URL and the environment's Secret Key. */
async function installation(): Promise<{ url: string; secretKey: string }> {
  const name = `faults_${++databases}`;
  await sql(`${server.url}/postgres`, `CREATE DATABASE ${name}`);
  const url = `${server.url}/${name}`;
  assert.equal(runBin(['migrate', '--db', url]).code, 0);
  const created = runBin(['env', 'create', 'faults', '--json', '--db', url]);
  assert.equal(created.code, 0, created.stderr);
  return { url, secretKey: (JSON.parse(created.stdout) as { secretKey: { key: string } }).secretKey.key };
}

async function sql<T = Record<string, unknown>>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client(url);
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

const get = (node: ServerProcess, secretKey: string, path = '/v1/imports') =>
  fetch(`${node.url}${path}`, { headers: { Authorization: `Bearer ${secretKey}` }, signal: AbortSignal.timeout(10_000) });

const postRows = (node: ServerProcess, secretKey: string) =>
  fetch(`${node.url}/v1/imports`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ meta: { schemaKey: 'after' }, rows: [{ a: 1 }, { a: 2 }] }),
    signal: AbortSignal.timeout(10_000),
  });

/** The answer of an import whose database connection was lost: 503 database_unavailable, with Retry-After. */
function assertUnavailable(answer: Answer): void {
  assert.equal(answer.status, 503, JSON.stringify(answer.body));
  assert.equal(answer.body.error.code, 'database_unavailable');
  assert.equal(answer.headers['retry-after'], '5');
}

/** The node is still running, never logged an unhandled error, and serves reads and imports again. */
async function assertServing(node: ServerProcess, secretKey: string): Promise<void> {
  await waitFor(async () => (await get(node, secretKey).catch(() => undefined))?.status === 200, 15_000);
  assert.equal((await postRows(node, secretKey)).status, 201);
  assert.equal(node.child.exitCode, null, node.output());
  assert.doesNotMatch(node.output(), /Unhandled|uncaught/i);
}

/** Once the failed imports are cleaned up, only complete imports and their rows are left. */
async function assertNoPartialRows(url: string): Promise<void> {
  // A removal that failed with the connection is finished by the next clean-up, once the writer's lease has run out.
  const left = `SELECT (SELECT count(*) FROM import_rows WHERE import_id NOT IN (SELECT id FROM imports WHERE status = 'complete'))::int
    + (SELECT count(*) FROM imports WHERE status <> 'complete')::int AS n`;
  await waitFor(async () => (await sql<{ n: number }>(url, left))[0]!.n === 0, 20_000);
}

/** The import's writer connection is in the middle of its COPY. */
const writerActive = async (url: string) =>
  (await sql(url, `SELECT pid FROM pg_stat_activity WHERE application_name = 'importd writer' AND state <> 'idle' AND datname = current_database()`)).length > 0;

describe('a PostgreSQL node survives its database failing', postgresOnly, () => {
  const nodes: ServerProcess[] = [];
  before(async () => {
    server = (await startPgServer()) as PgServer;
  });
  after(async () => {
    for (const node of nodes) if (node.child.exitCode === null) await node.stop();
    server?.stop();
  });
  const serve = async (url: string, env: Record<string, string> = {}) => {
    const node = await startServe(url, { IMPORTD_RATE_LIMIT: '0', IMPORTD_LEASE_SECONDS: '3', ...env });
    nodes.push(node);
    return node;
  };

  it('answers 503 to the import whose writer backend is terminated, rolls it back, and keeps serving', async () => {
    const { url, secretKey } = await installation();
    const node = await serve(url);
    const upload = pumpImport(node.url, secretKey, 'terminated');
    await waitFor(() => writerActive(url), 15_000);
    await sql(url, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'importd writer' AND state <> 'idle'`);
    assertUnavailable(await upload.answer);
    await assertServing(node, secretKey);
    await assertNoPartialRows(url);
  });

  it('keeps two nodes running through a restart of the server in the middle of their imports', async () => {
    const { url, secretKey } = await installation();
    const [first, second] = [await serve(url), await serve(url)];
    const uploads = [pumpImport(first!.url, secretKey, 'first'), pumpImport(second!.url, secretKey, 'second')];
    await waitFor(async () => uploads.every((upload) => upload.sent() >= 2_000) && (await writerActive(url)), 15_000);
    server.restart();
    for (const upload of uploads) assertUnavailable(await upload.answer);
    await assertServing(first!, secretKey);
    await assertServing(second!, secretKey);
    await assertNoPartialRows(url);
  });

  it('answers 503 while the server is frozen, /readyz within its own second, and recovers when it thaws', async () => {
    const { url, secretKey } = await installation();
    const node = await serve(url, { IMPORTD_PG_STATEMENT_TIMEOUT_MS: '1000', IMPORTD_PG_CONNECT_TIMEOUT_MS: '1000' });
    assert.equal((await get(node, secretKey)).status, 200);
    const frozen = server.pids();
    for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    try {
      const read = await get(node, secretKey);
      assert.equal(read.status, 503);
      assert.equal(((await read.json()) as Answer['body']).error.code, 'database_unavailable');
      assert.equal(read.headers.get('retry-after'), '5');
      const write = await postRows(node, secretKey);
      assert.equal(write.status, 503);
      // Well within a load balancer's probe timeout, whatever the pools' timeouts are.
      const ready = await fetch(`${node.url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      assert.equal(ready.status, 503);
      assert.match(((await ready.json()) as Answer['body']).error.message, /did not answer/);
    } finally {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
    }
    await assertServing(node, secretKey);
    assert.equal((await fetch(`${node.url}/readyz`)).status, 200);
  });
});
