import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { openSocket, waitFor } from '../helpers/live-server';
import { runBin, startServe, type ServerProcess } from '../helpers/process';
import { binDatabases } from '../helpers/test-database';

const dir = mkdtempSync(path.join(tmpdir(), 'importd-drain-'));
const databases = binDatabases(dir);
const GRACE = { IMPORTD_SHUTDOWN_GRACE_SECONDS: '2', IMPORTD_RATE_LIMIT: '0' };

/** A database with one environment; returns its `--db` value and the environment's Secret Key. */
async function installation(name: string): Promise<{ db: string; secretKey: string }> {
  const db = await databases.create(`${name}.db`);
  assert.equal(runBin(['migrate', '--db', db]).code, 0);
  const created = runBin(['env', 'create', 'drain', '--json', '--db', db]);
  assert.equal(created.code, 0, created.stderr);
  return { db, secretKey: (JSON.parse(created.stdout) as { secretKey: { key: string } }).secretKey.key };
}

const request = (method: string, target: string, headers: string[], body = '') =>
  `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n${body}`;

// A drain that never ends is a test's failure: the bound is each test's, far past the 2 s grace (and past what
// starting a server and a 20 MB import take on a loaded machine).
const BOUND = { timeout: 90_000 };

describe('the SIGTERM drain ends within IMPORTD_SHUTDOWN_GRACE_SECONDS', () => {
  let server: ServerProcess | undefined;
  after(async () => {
    if (server?.child.exitCode === null) await server.stop('SIGKILL');
    await databases.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('closes idle keep-alive connections, and finishes a request in flight with Connection: close', BOUND, async () => {
    const { db, secretKey } = await installation('keep-alive');
    server = await startServe(db, GRACE);
    const port = Number(new URL(server.url).port);
    const idle = await openSocket(port);
    idle.write(request('GET', '/healthz', []));
    await waitFor(() => idle.received().includes('{"status":"ok"}'));
    // An upload in progress when the signal comes: it completes, and its connection is not kept.
    const busy = await openSocket(port);
    const head = [`Authorization: Bearer ${secretKey}`, 'Content-Type: application/x-ndjson', 'Transfer-Encoding: chunked'];
    const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
    busy.write(request('POST', '/v1/imports', head, chunk(`${JSON.stringify({ meta: { schemaKey: 'drain' } })}\n{"a":1}\n`)));
    const stopped = server.stop();
    await idle.ended;
    busy.write(`${chunk('{"a":2}\n')}0\r\n\r\n`);
    await busy.ended;
    assert.match(busy.received(), /^HTTP\/1\.1 201 /);
    assert.match(busy.received(), /\r\nconnection: close\r\n/i);
    assert.equal(await stopped, 0);
  });

  it('cuts a reader that stopped reading an export at the deadline, its body visibly incomplete', BOUND, async () => {
    const { db, secretKey } = await installation('stalled');
    server = await startServe(db, GRACE);
    const rows = Array.from({ length: 40_000 }, (_, i) => ({ i, pad: 'x'.repeat(500) }));
    const created = await fetch(`${server.url}/v1/imports`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ meta: { schemaKey: 'big' }, rows }),
    });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    const reader = await openSocket(Number(new URL(server.url).port));
    reader.write(request('GET', `/v1/imports/${id}/export?format=ndjson`, [`Authorization: Bearer ${secretKey}`]));
    await waitFor(() => reader.received().includes('\r\n\r\n'));
    reader.pause();
    assert.match(reader.received(), /^HTTP\/1\.1 200 [^]*transfer-encoding: chunked/i);
    assert.equal(await server.stop(), 0);
    reader.resume();
    await reader.ended;
    // About 20 MB were to come: what came ends without the terminating chunk.
    assert.ok(!reader.received().endsWith('\r\n0\r\n\r\n'), 'the export looks complete');
    assert.ok(reader.received().length < rows.length * 500);
  });
});
