import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import { runBin, startServe, type ServerProcess } from '../helpers/process';
import { binDatabases } from '../helpers/test-database';

// Runs the built bundle (`npm test` builds it first; alone: `node scripts/build.mjs`) beside a running server.
describe('./bin/importd env roll, env delete and session rotate-secret against a running server', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-e2e-keys-'));
  const databases = binDatabases(dir);
  let db: string;
  let server: ServerProcess;
  let secretKey: string;
  before(async () => {
    db = await databases.create();
    assert.equal(runBin(['migrate', '--db', db]).code, 0);
    const created = runBin(['env', 'create', 'production', '--origin', 'https://app.example.com', '--json', '--db', db]);
    assert.equal(created.code, 0, created.stderr);
    secretKey = JSON.parse(created.stdout).secretKey.key;
    server = await startServe(db);
  });
  after(async () => {
    await server?.stop();
    await databases.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (key: string) => fetch(`${server.url}/v1/environments`, { headers: { Authorization: `Bearer ${key}` } });
  const issue = async (key: string) => {
    const response = await fetch(`${server.url}/v1/sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ endUserId: 'u-1' }),
    });
    return ((await response.json()) as { sessionToken: string }).sessionToken;
  };

  it('rolls the Secret Key: the server refuses the old one and takes the new one at once', async () => {
    assert.equal((await get(secretKey)).status, 200);
    const rolled = runBin(['env', 'roll', 'production', '--kind', 'secret', '--json', '--db', db]);
    assert.equal(rolled.code, 0, rolled.stderr);
    const next = JSON.parse(rolled.stdout).key.key as string;
    assert.equal((await get(secretKey)).status, 401);
    assert.equal((await get(next)).status, 200);
    secretKey = next;
  });

  it('rotates the session secret: the running server signs with it at once', async () => {
    const rotated = runBin(['session', 'rotate-secret', '--json', '--db', db]);
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.equal(decodeProtectedHeader(await issue(secretKey)).kid, JSON.parse(rotated.stdout).kid);
  });

  it('deletes the environment only with --yes; its key is refused afterwards', async () => {
    const refused = runBin(['env', 'delete', 'production', '--db', db]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /^error \[validation_failed\]: .*--yes/);
    const deleted = runBin(['env', 'delete', 'production', '--yes', '--db', db]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, /^environment production deleted \(keys deactivated: 2, sessions revoked: 1\); its imports stay\n$/);
    assert.equal((await get(secretKey)).status, 401);
  });
});
