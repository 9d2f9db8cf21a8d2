import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, createTestEnvironment, createTestSession, json, testClock, type Harness } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

const getEnvironments = (h: Harness, key: string) => call(h, 'GET', '/v1/environments', { key });

describe('a Secret Key manages only its own environment; keys can be rolled', () => {
  const clock = testClock();
  const { h, env: production, development } = useHarness({
    clock,
    environments: { development: { name: 'development', origins: ['http://localhost:3000'] } },
  });

  const originsOf = async (name: string) =>
    (await json(await getEnvironments(h, production.secretKey))).data.find((e: any) => e.name === name).publicKey.allowedOrigins;

  it("answers 404 when one environment's Secret Key replaces another's origins, changing nothing", async () => {
    const response = await call(h, 'PATCH', '/v1/environments/production/origins', {
      key: development.secretKey,
      body: { allowedOrigins: ['https://attacker.net'] },
    });
    assert.equal(response.status, 404);
    assert.equal((await json(response)).error.code, 'not_found');
    assert.deepEqual(await originsOf('production'), ['https://app.example.com']);
    const own = await call(h, 'PATCH', '/v1/environments/development/origins', { key: development.secretKey, body: { allowedOrigins: ['http://localhost:4000'] } });
    assert.equal(own.status, 200);
    assert.deepEqual(await originsOf('development'), ['http://localhost:4000']);
  });

  it("answers 404 when one environment's Secret Key rolls another's keys; POST /environments stays open", async () => {
    for (const kind of ['secret', 'public']) {
      const response = await call(h, 'POST', '/v1/environments/production/keys/roll', { key: development.secretKey, body: { kind } });
      assert.equal(response.status, 404);
    }
    assert.equal((await getEnvironments(h, production.secretKey)).status, 200, "production's keys still work");
    const created = await call(h, 'POST', '/v1/environments', { key: development.secretKey, body: { name: 'preview', allowedOrigins: [] } });
    assert.equal(created.status, 201);
  });

  it('rolls the Secret Key: the new value once, the old key refused at once', async () => {
    const env = await createTestEnvironment(h, { name: 'roll-secret' });
    const response = await call(h, 'POST', '/v1/environments/roll-secret/keys/roll', { key: env.secretKey, body: { kind: 'secret' } });
    assert.equal(response.status, 201, await response.clone().text());
    const rolled = await json(response);
    assert.equal(rolled.kind, 'secret');
    assert.match(rolled.key.key, /^sk_[0-9A-Za-z]{40}$/);
    assert.equal(rolled.key.prefix, rolled.key.key.slice(0, 12));
    assert.equal(rolled.key.active, true);
    assert.equal(rolled.previous.prefix, env.secretKey.slice(0, 12));
    assert.equal(rolled.previous.expiresAt, clock().toISOString());
    assert.equal((await getEnvironments(h, env.secretKey)).status, 401);
    const listed = await json(await getEnvironments(h, rolled.key.key));
    assert.equal(listed.data.find((e: any) => e.name === 'roll-secret').secretKey.prefix, rolled.key.prefix);
  });

  it('rolls the Public Key with a grace period: both work until it ends, the new one with the same origins', async () => {
    const env = await createTestEnvironment(h, { name: 'roll-public', origins: ['https://app.example.com', 'https://*.shop.example'], autoCreateTemplates: true });
    const session = (await createTestSession(h, env)).sessionToken;
    const response = await call(h, 'POST', '/v1/environments/roll-public/keys/roll', { key: env.secretKey, body: { kind: 'public', expireOldInSeconds: 3600 } });
    assert.equal(response.status, 201);
    const rolled = await json(response);
    assert.match(rolled.key.key, /^pk_/);
    assert.deepEqual(rolled.key.allowedOrigins, ['https://app.example.com', 'https://*.shop.example']);
    assert.equal(rolled.previous.expiresAt, new Date(clock().getTime() + 3_600_000).toISOString());
    const theme = (key: string, origin = env.origin) => call(h, 'GET', '/v1/themes', { key, origin });
    assert.equal((await theme(env.publicKey)).status, 404, 'old key works during the grace period (404: no theme yet)');
    assert.equal((await theme(rolled.key.key, 'https://a.shop.example')).status, 404, 'new key works with the kept origins');
    const probe = await call(h, 'POST', '/v1/imports', { key: rolled.key.key, origin: env.origin, session, body: { meta: { schemaKey: 's' }, rows: [] } });
    assert.equal(probe.status, 201, 'sessions issued before the roll still work with the new key');
    clock.advance(3_600_000);
    assert.equal((await theme(env.publicKey)).status, 401, 'old key refused once the grace period ends');
    assert.equal((await theme(rolled.key.key)).status, 404);
    const preflight = await call(h, 'OPTIONS', '/v1/themes', { origin: 'https://a.shop.example', headers: { 'Access-Control-Request-Method': 'GET' } });
    assert.equal(preflight.status, 204);
  });

  it('refuses bad roll input with 400 at its path, a Public Key with 403, an unknown environment with 404', async () => {
    const env = await createTestEnvironment(h, { name: 'roll-bad' });
    const cases: [unknown, string][] = [
      [{}, 'kind'],
      [{ kind: 'admin' }, 'kind'],
      [{ kind: 'secret', expireOldInSeconds: -1 }, 'expireOldInSeconds'],
      [{ kind: 'secret', expireOldInSeconds: 604_801 }, 'expireOldInSeconds'],
      [{ kind: 'secret', expireOldInSeconds: 1.5 }, 'expireOldInSeconds'],
      [{ kind: 'secret', expireOldInSeconds: '60' }, 'expireOldInSeconds'],
    ];
    for (const [body, path] of cases) {
      const response = await call(h, 'POST', '/v1/environments/roll-bad/keys/roll', { key: env.secretKey, body });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal((await json(response)).error.details[0].path, path);
    }
    const byPublic = await call(h, 'POST', '/v1/environments/roll-bad/keys/roll', { key: env.publicKey, origin: env.origin, body: { kind: 'public' } });
    assert.equal(byPublic.status, 403);
    const unknown = await call(h, 'POST', '/v1/environments/nowhere/keys/roll', { key: env.secretKey, body: { kind: 'secret' } });
    assert.equal(unknown.status, 404);
    assert.equal((await getEnvironments(h, env.secretKey)).status, 200, 'nothing was rolled');
  });

  it('documents the roll route with operationId, summary, description and tags', async () => {
    const document = await json(await call(h, 'GET', '/v1/openapi.json'));
    const operation = document.paths['/v1/environments/{name}/keys/roll'].post;
    assert.equal(operation.operationId, 'rollEnvironmentKey');
    assert.ok(operation.summary && operation.description);
    assert.deepEqual(operation.tags, ['Environments']);
  });
});
