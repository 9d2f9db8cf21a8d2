import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { runBin, startServe, type ServerProcess } from '../helpers/process';
import { binDatabases } from '../helpers/test-database';

// What the CLI changes in the database while `serve` runs is what the server answers on its very next request
// (no process keeps keys, sessions or imports of its own). Both engines: the CLI and the server are separate
// processes on one SQLite file or one PostgreSQL database. Runs the built bundle (`npm test` builds it first).
describe('./bin/importd changes seen by a running serve on its next request', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-e2e-beside-'));
  const databases = binDatabases(dir);
  const origin = 'https://app.example.com';
  let db: string;
  let server: ServerProcess;
  let secretKey: string;
  let publicKey: string;

  before(async () => {
    db = await databases.create();
    assert.equal(runBin(['migrate', '--db', db]).code, 0);
    const created = runBin(['env', 'create', 'production', '--origin', origin, '--auto-create-templates', '--json', '--db', db]);
    assert.equal(created.code, 0, created.stderr);
    ({ secretKey: { key: secretKey }, publicKey: { key: publicKey } } = JSON.parse(created.stdout));
    server = await startServe(db);
  });
  after(async () => {
    await server?.stop();
    await databases.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (key: string, target: string) => fetch(`${server.url}${target}`, { headers: { Authorization: `Bearer ${key}` } });
  const reads = (importId: string) => [`/v1/imports/${importId}`, `/v1/imports/${importId}/rows?limit=10`, '/v1/imports?limit=10'];
  const statuses = async (key: string, targets: string[]) => Promise.all(targets.map(async (target) => (await get(key, target)).status));
  const cli = (...args: string[]) => {
    const result = runBin([...args, '--db', db]);
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  };
  const issueSession = async (endUserId: string) => {
    const response = await fetch(`${server.url}/v1/sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ endUserId }),
    });
    assert.equal(response.status, 201, await response.clone().text());
    return ((await response.json()) as { sessionToken: string }).sessionToken;
  };
  /** An import sent by the SDK's way (Public Key, Origin, session token): its status, and its id when stored. */
  const importAs = async (sessionToken: string) => {
    const response = await fetch(`${server.url}/v1/imports`, {
      method: 'POST',
      headers: { 'X-Public-Key': publicKey, Origin: origin, 'X-Session-Token': sessionToken, 'Content-Type': 'application/json' },
      body: JSON.stringify({ meta: { schemaKey: 'contacts' }, rows: [{ a: 1 }, { a: 2 }] }),
    });
    return { status: response.status, id: ((await response.json()) as { id?: string }).id };
  };

  it('imports delete: the detail and rows page answer 404 at once', async () => {
    const { status, id } = await importAs(await issueSession('u-imports'));
    assert.equal(status, 201);
    assert.deepEqual(await statuses(secretKey, reads(id!)), [200, 200, 200]);
    cli('imports', 'delete', id!);
    assert.deepEqual(await statuses(secretKey, reads(id!)), [404, 404, 200]);
  });

  it('session revoke: the token is refused at once', async () => {
    const token = await issueSession('u-revoke');
    assert.equal((await importAs(token)).status, 201);
    cli('session', 'revoke', decodeJwt(token).jti!);
    assert.equal((await importAs(token)).status, 401);
  });

  it("end-user delete: the end-user's imports answer 404 and its sessions are refused at once", async () => {
    const token = await issueSession('u-erased');
    const { id } = await importAs(token);
    assert.deepEqual(await statuses(secretKey, reads(id!)), [200, 200, 200]);
    cli('end-user', 'delete', 'u-erased');
    assert.deepEqual(await statuses(secretKey, reads(id!)), [404, 404, 200]);
    assert.equal((await importAs(token)).status, 401);
  });

  it('env roll: the old Secret Key is refused on every read at once, the new one taken', async () => {
    const { id } = await importAs(await issueSession('u-roll'));
    assert.deepEqual(await statuses(secretKey, reads(id!)), [200, 200, 200]);
    const next = JSON.parse(cli('env', 'roll', 'production', '--kind', 'secret', '--json')).key.key as string;
    assert.deepEqual(await statuses(secretKey, reads(id!)), [401, 401, 401]);
    assert.deepEqual(await statuses(next, reads(id!)), [200, 200, 200]);
    secretKey = next;
  });

  it('env delete: its Secret Key is refused on every read, its Public Key on an import, at once', async () => {
    const token = await issueSession('u-env');
    const { id } = await importAs(token);
    assert.deepEqual(await statuses(secretKey, reads(id!)), [200, 200, 200]);
    cli('env', 'delete', 'production', '--yes');
    assert.deepEqual(await statuses(secretKey, reads(id!)), [401, 401, 401]);
    assert.equal((await importAs(token)).status, 401);
  });
});
