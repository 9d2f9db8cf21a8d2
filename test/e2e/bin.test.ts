import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { runBin, startServe } from '../helpers/process';
import { binDatabases } from '../helpers/test-database';

const dir = mkdtempSync(path.join(tmpdir(), 'importd-e2e-'));
const databases = binDatabases(dir);
after(async () => {
  await databases.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('./bin/importd end to end', () => {
  it('creates an environment, serves authenticated requests, refuses bad credentials, and stops cleanly on SIGTERM', async () => {
    const db = await databases.create();
    assert.equal(runBin(['migrate', '--db', db]).code, 0);
    const created = runBin(['env', 'create', 'production', '--origin', 'https://app.example.com', '--json', '--db', db]);
    assert.equal(created.code, 0, created.stderr);
    const keys = JSON.parse(created.stdout);

    const server = await startServe(db);
    try {
      const health = await fetch(`${server.url}/healthz`);
      assert.equal(health.status, 200);
      const doc = await fetch(`${server.url}/v1/openapi.json`);
      assert.equal(doc.status, 200);

      const list = await fetch(`${server.url}/v1/environments`, { headers: { Authorization: `Bearer ${keys.secretKey.key}` } });
      assert.equal(list.status, 200);
      assert.equal(((await list.json()) as any).data[0].name, 'production');

      const unknown = await fetch(`${server.url}/v1/environments`, { headers: { Authorization: 'Bearer sk_000000000000000000000000000000000000' } });
      assert.equal(unknown.status, 401);
      assert.equal(((await unknown.json()) as any).error.code, 'invalid_api_key');

      const foreign = await fetch(`${server.url}/v1/sessions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${keys.publicKey.key}`, Origin: 'https://evil.example.net', 'Content-Type': 'application/json' },
        body: '{}',
      });
      assert.equal(foreign.status, 403);

      const token = runBin(['session', 'issue', '--env', 'production', '--end-user', 'user-1', '--db', db]);
      assert.equal(token.code, 0, token.stderr);
      assert.match(token.stdout.trim(), /^[\w-]+\.[\w-]+\.[\w-]+$/);
    } finally {
      const code = await server.stop();
      assert.equal(code, 0, server.output());
    }
    const lines = server.output().trim().split('\n').map((line) => JSON.parse(line));
    assert.ok(lines.some((line) => line.msg === 'request' && line.path === '/v1/environments' && line.status === 200));
    assert.equal(lines.at(-1).msg, 'stopped');
    assert.ok(!server.output().includes(keys.secretKey.key), 'keys never appear in logs');
  });
});
