import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authFailureSuite } from '../helpers/auth-suite';
import { call, json, type TestEnvironment } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

describe('webhooks API: registration, lists, removal', () => {
  const { h, env, staging, other } = useHarness({
    config: { IMPORTD_WEBHOOK_MAX_ENDPOINTS: '3' },
    environments: { staging: { name: 'staging' }, other: { account: 'other-account' } },
  });

  const create = (body: unknown, key = env.secretKey) => call(h, 'POST', '/v1/webhooks', { key, body });
  const removeAll = async (e: TestEnvironment) => {
    for (const hook of (await json(await call(h, 'GET', '/v1/webhooks', { key: e.secretKey }))).data) {
      assert.equal((await call(h, 'DELETE', `/v1/webhooks/${hook.id}`, { key: e.secretKey })).status, 200);
    }
  };

  it('answers 201 with every event by default and the secret once; lists never show the secret', async () => {
    const response = await create({ url: 'https://hooks.example.com/importd', description: 'billing' });
    assert.equal(response.status, 201);
    const body = await json(response);
    assert.match(body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(body.secret.slice(6), 'base64').length, 32);
    assert.deepEqual(body.events, ['import.completed', 'import.deleted', 'end_user.deleted', 'import.approved', 'import.rejected']);
    assert.equal(body.active, true);
    assert.equal(body.disabledReason, null);
    assert.equal(body.description, 'billing');
    assert.equal(body.environmentId, env.environmentId);
    const list = await json(await call(h, 'GET', '/v1/webhooks', { key: env.secretKey }));
    assert.equal(list.data.length, 1);
    assert.equal(list.data[0].id, body.id);
    assert.equal('secret' in list.data[0], false);
    assert.equal(JSON.stringify(list).includes(body.secret), false);
    assert.ok(!h.logs.some((line) => line.includes(body.secret)), 'the secret is never logged');
    await removeAll(env);
  });

  const invalid: [string, unknown][] = [
    ['no url', {}],
    ['not a URL', { url: 'hooks.example.com' }],
    ['http', { url: 'http://hooks.example.com/x' }],
    ['ftp', { url: 'ftp://hooks.example.com/x' }],
    ['credentials', { url: 'https://user:pass@hooks.example.com/x' }],
    ['fragment', { url: 'https://hooks.example.com/x#y' }],
    ['too long', { url: `https://hooks.example.com/${'a'.repeat(2030)}` }],
    ['loopback', { url: 'https://127.0.0.1/x' }],
    ['loopback in another notation', { url: 'https://0x7f000001/x' }],
    ['private', { url: 'https://10.1.2.3/x' }],
    ['private 192.168', { url: 'https://192.168.0.10/x' }],
    ['link-local metadata', { url: 'https://169.254.169.254/latest/meta-data' }],
    ['CGNAT', { url: 'https://100.64.0.1/x' }],
    ['unspecified', { url: 'https://0.0.0.0/x' }],
    ['multicast', { url: 'https://224.0.0.1/x' }],
    ['IPv6 loopback', { url: 'https://[::1]/x' }],
    ['IPv6 metadata', { url: 'https://[fd00:ec2::254]/x' }],
    ['IPv6 link-local', { url: 'https://[fe80::1]/x' }],
    ['IPv4-mapped loopback', { url: 'https://[::ffff:127.0.0.1]/x' }],
    ['IPv4-compatible loopback (URL writes it [::7f00:1])', { url: 'https://[::127.0.0.1]/x' }],
    ['too long once non-ASCII characters are percent-encoded', { url: `https://hooks.example.com/${'é'.repeat(1000)}` }],
    ['IPv4-mapped private (hex)', { url: 'https://[::ffff:a00:1]/x' }],
    ['localhost', { url: 'https://localhost/x' }],
    ['a localhost subdomain', { url: 'https://api.localhost/x' }],
    ['unknown event', { url: 'https://hooks.example.com/x', events: ['import.created'] }],
    ['no events', { url: 'https://hooks.example.com/x', events: [] }],
    ['unknown member', { url: 'https://hooks.example.com/x', secret: 'whsec_mine' }],
    ['long description', { url: 'https://hooks.example.com/x', description: 'd'.repeat(501) }],
    ['NUL in the description', { url: 'https://hooks.example.com/x', description: 'a\u0000b' }],
  ];
  for (const [name, body] of invalid) {
    it(`refuses ${name} with 400 validation_failed`, async () => {
      const response = await create(body);
      const payload = await json(response);
      assert.equal(response.status, 400, JSON.stringify(payload));
      assert.equal(payload.error.code, 'validation_failed');
    });
  }

  it('accepts a public address literal and an IPv6 one', async () => {
    assert.equal((await create({ url: 'https://93.184.215.14/hook' })).status, 201);
    assert.equal((await create({ url: 'https://[2606:4700::6810:84e5]/hook' })).status, 201);
    await removeAll(env);
  });

  it('caps the endpoints of one environment (IMPORTD_WEBHOOK_MAX_ENDPOINTS), not of the others', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await create({ url: `https://hooks.example.com/${i}` })).status, 201);
    const full = await create({ url: 'https://hooks.example.com/4' });
    assert.equal(full.status, 400);
    assert.match((await json(full)).error.message, /IMPORTD_WEBHOOK_MAX_ENDPOINTS/);
    assert.equal((await create({ url: 'https://hooks.example.com/x' }, staging.secretKey)).status, 201);
    await removeAll(env);
    await removeAll(staging);
  });

  it('pages newest first by keyset, with total and a cursor bound to the list', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await json(await create({ url: `https://hooks.example.com/${i}` }))).id);
    const first = await json(await call(h, 'GET', '/v1/webhooks?limit=2', { key: env.secretKey }));
    assert.deepEqual(first.data.map((w: { id: string }) => w.id), [ids[2], ids[1]]);
    assert.equal(first.pagination.paging.total, 3);
    assert.equal(first.pagination.paging.hasNext, true);
    const second = await json(await call(h, 'GET', `/v1/webhooks?limit=2&cursor=${first.pagination.paging.nextCursor}`, { key: env.secretKey }));
    assert.deepEqual(second.data.map((w: { id: string }) => w.id), [ids[0]]);
    assert.equal(second.pagination.paging.nextCursor, null);
    const elsewhere = await call(h, 'GET', `/v1/webhooks?limit=2&cursor=${first.pagination.paging.nextCursor}`, { key: staging.secretKey });
    assert.equal(elsewhere.status, 400, "a cursor of another environment's list is refused");
    assert.equal((await call(h, 'GET', '/v1/webhooks?limit=101', { key: env.secretKey })).status, 400);
    assert.equal((await json(await call(h, 'GET', '/v1/webhooks?limit=0', { key: env.secretKey }))).pagination.paging.total, 3);
    await removeAll(env);
  });

  it("answers 404 for another environment's or account's endpoint, and for its deliveries", async () => {
    const hook = await json(await create({ url: 'https://hooks.example.com/mine' }));
    for (const stranger of [staging, other]) {
      assert.equal((await call(h, 'DELETE', `/v1/webhooks/${hook.id}`, { key: stranger.secretKey })).status, 404);
      assert.equal((await call(h, 'GET', `/v1/webhooks/${hook.id}/deliveries`, { key: stranger.secretKey })).status, 404);
      assert.equal((await json(await call(h, 'GET', '/v1/webhooks', { key: stranger.secretKey }))).data.length, 0);
    }
    assert.equal((await call(h, 'GET', `/v1/webhooks/${hook.id}/deliveries`, { key: env.secretKey })).status, 200);
    assert.equal((await call(h, 'DELETE', `/v1/webhooks/${hook.id}`, { key: env.secretKey })).status, 200);
    assert.equal((await call(h, 'DELETE', `/v1/webhooks/${hook.id}`, { key: env.secretKey })).status, 404);
    for (const odd of ['%00', 'a%00b', '%F0%9F%98%80', "x'%20OR%201=1"]) {
      assert.equal((await call(h, 'DELETE', `/v1/webhooks/${odd}`, { key: env.secretKey })).status, 404, odd);
      assert.equal((await call(h, 'GET', `/v1/webhooks/${odd}/deliveries`, { key: env.secretKey })).status, 404, odd);
      assert.equal((await call(h, 'POST', `/v1/webhooks/${hook.id}/deliveries/${odd}/redeliver`, { key: env.secretKey })).status, 404, odd);
    }
  });

  const routes: [string, string, () => string, (() => unknown)?][] = [
    ['POST', '/v1/webhooks', () => '/v1/webhooks', () => ({ url: 'https://hooks.example.com/x' })],
    ['GET', '/v1/webhooks', () => '/v1/webhooks'],
    ['DELETE', '/v1/webhooks/{id}', () => '/v1/webhooks/0190e4a0-0000-7000-8000-000000000000'],
    ['GET', '/v1/webhooks/{id}/deliveries', () => '/v1/webhooks/0190e4a0-0000-7000-8000-000000000000/deliveries'],
    ['POST', '/v1/webhooks/{id}/deliveries/{eventId}/redeliver', () => '/v1/webhooks/0190e4a0-0000-7000-8000-000000000000/deliveries/evt_x/redeliver'],
  ];
  for (const [method, name, path, body] of routes) {
    authFailureSuite({ name: `${method} ${name}`, harness: () => h, env: () => env, other: () => other, method, path, credential: 'secret', ...(body && { body }) });
  }
});
