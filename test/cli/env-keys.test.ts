import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTemplate } from '../../src/services/templates';
import { cliOnHarness } from '../helpers/cli';
import { call, createHarness, createTestEnvironment, createTestSession, json, testClock, type Harness } from '../helpers/harness';

describe('importd env roll and env delete', () => {
  const clock = testClock();
  let h: Harness;
  let importd: ReturnType<typeof cliOnHarness>;
  before(async () => {
    h = await createHarness({ clock });
    importd = cliOnHarness(h);
  });
  after(() => h.close());

  it('rolls a Secret Key, printing the new value once; the old one is refused at once', async () => {
    const env = await createTestEnvironment(h, { name: 'cli-secret' });
    const { code, stdout, stderr } = await importd('env', 'roll', 'cli-secret', '--kind', 'secret');
    assert.equal(code, 0, stderr);
    const key = /new secret key of cli-secret: (sk_\w+)/.exec(stdout)?.[1];
    assert.ok(key, stdout);
    assert.match(stdout, new RegExp(`previous key ${env.secretKey.slice(0, 12)}\\.\\.\\. stops working at ${clock().toISOString()}`));
    assert.equal((await call(h, 'GET', '/v1/environments', { key: env.secretKey })).status, 401);
    assert.equal((await call(h, 'GET', '/v1/environments', { key })).status, 200);
  });

  it('rolls a Public Key with --expire-old-in and --json, keeping its origins', async () => {
    const env = await createTestEnvironment(h, { name: 'cli-public', origins: ['https://shop.example.com'] });
    const { code, stdout } = await importd('env', 'roll', 'cli-public', '--kind', 'public', '--expire-old-in', '600', '--json');
    assert.equal(code, 0);
    const rolled = JSON.parse(stdout);
    assert.deepEqual(Object.keys(rolled), ['kind', 'key', 'previous']);
    assert.deepEqual(rolled.key.allowedOrigins, ['https://shop.example.com']);
    assert.equal(rolled.previous.expiresAt, new Date(clock().getTime() + 600_000).toISOString());
    const theme = (key: string) => call(h, 'GET', '/v1/themes', { key, origin: env.origin });
    assert.equal((await theme(env.publicKey)).status, 404);
    clock.advance(600_000);
    assert.equal((await theme(env.publicKey)).status, 401);
    assert.equal((await theme(rolled.key.key)).status, 404);
  });

  it('refuses bad roll input with exit 2 and an unknown environment with exit 3', async () => {
    await createTestEnvironment(h, { name: 'cli-bad' });
    for (const args of [['--kind', 'root'], ['--kind', 'secret', '--expire-old-in', 'soon'], ['--kind', 'secret', '--expire-old-in', '604801']]) {
      const result = await importd('env', 'roll', 'cli-bad', ...args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, /^error \[validation_failed\]/);
    }
    const unknown = await importd('env', 'roll', 'nowhere', '--kind', 'secret');
    assert.equal(unknown.code, 3);
    assert.match(unknown.stderr, /^error \[not_found\]: environment nowhere not found/);
  });

  it('deletes an environment only with --yes: keys and sessions stop working, imports stay and still name it, the name is free again', async () => {
    const env = await createTestEnvironment(h, { name: 'shadow' });
    const keeper = await createTestEnvironment(h, { name: 'keeper' });
    await createTemplate(h.ctx, env.accountId, { key: 'contacts', schema: {} });
    const { sessionToken } = await createTestSession(h, env);
    const imported = await json(await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: 'contacts' }, rows: [{ a: 1 }] } }));

    const refused = await importd('env', 'delete', 'shadow');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /add --yes/);
    assert.equal((await call(h, 'GET', '/v1/environments', { key: env.secretKey })).status, 200, 'nothing deleted without --yes');

    const { code, stdout } = await importd('env', 'delete', 'shadow', '--yes', '--json');
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(stdout), { name: 'shadow', deletedAt: clock().toISOString(), deactivatedKeys: 2, revokedSessions: 1 });

    assert.equal((await call(h, 'GET', '/v1/environments', { key: env.secretKey })).status, 401);
    const sdk = await call(h, 'POST', '/v1/imports', { key: env.publicKey, origin: env.origin, session: sessionToken, body: { rows: [] } });
    assert.equal(sdk.status, 401);
    const jti = JSON.parse(Buffer.from(sessionToken.split('.')[1]!, 'base64url').toString()).jti;
    assert.deepEqual(await h.sql('SELECT revoked_at FROM sessions WHERE jti = ?', jti), [{ revoked_at: clock().toISOString() }]);
    const listed = JSON.parse((await importd('env', 'list', '--json')).stdout).data.map((e: any) => e.name);
    assert.ok(!listed.includes('shadow'));
    const filtered = await json(await call(h, 'GET', '/v1/imports?environment=shadow', { key: keeper.secretKey }));
    assert.deepEqual(filtered.data.map((i: any) => i.id), [imported.id], 'its imports stay and are still found by its name');
    assert.equal((await importd('env', 'delete', 'shadow', '--yes')).code, 3, 'already gone');
    const again = await importd('env', 'create', 'shadow');
    assert.equal(again.code, 0, 'the name can be used again');
    assert.equal(JSON.parse((await importd('env', 'list', '--json')).stdout).data.filter((e: any) => e.name === 'shadow').length, 1);
  });
});
