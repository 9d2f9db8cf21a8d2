import assert from 'node:assert/strict';
import { get as httpGet } from 'node:http';
import { describe, it } from 'node:test';
import { call, createHarness, createTestEnvironment, json, testClock } from '../helpers/harness';
import { useHarness, useLiveHarness } from '../helpers/use-harness';

describe('per-key rate limit', () => {
  const clock = testClock('2026-01-31T12:00:00.000Z');
  const { h, env, other } = useHarness({
    clock,
    config: { IMPORTD_RATE_LIMIT: '3', IMPORTD_RATE_WINDOW_SECONDS: '60' },
    environments: { other: { name: 'staging' } },
  });

  const get = (key: string) => call(h, 'GET', '/v1/environments', { key });
  const limits = (response: Response) => ({
    limit: response.headers.get('RateLimit-Limit'),
    remaining: response.headers.get('RateLimit-Remaining'),
    reset: response.headers.get('RateLimit-Reset'),
  });

  it('counts each authenticated request and says so in RateLimit-* headers', async () => {
    for (const remaining of ['2', '1', '0']) {
      const response = await get(env.secretKey);
      assert.equal(response.status, 200);
      assert.deepEqual(limits(response), { limit: '3', remaining, reset: '60' });
    }
  });

  it('answers 429 rate_limited with Retry-After once the key is over its limit', async () => {
    clock.advance(15_000);
    const response = await get(env.secretKey);
    assert.equal(response.status, 429);
    const body = await json(response);
    assert.equal(body.error.code, 'rate_limited');
    assert.match(body.error.requestId, /^req_/);
    assert.equal(response.headers.get('Retry-After'), '45');
    assert.deepEqual(limits(response), { limit: '3', remaining: '0', reset: '45' });
  });

  it('refuses writes of a limited key too, without performing them', async () => {
    const response = await call(h, 'POST', '/v1/environments', { key: env.secretKey, body: { name: 'blocked', allowedOrigins: [] } });
    assert.equal(response.status, 429);
    const names = await h.sql("SELECT name FROM environments WHERE name = 'blocked'");
    assert.deepEqual(names, []);
  });

  it('limits keys independently', async () => {
    const response = await get(other.secretKey);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('RateLimit-Remaining'), '2');
  });

  it('counts the public key of an environment apart from its secret key', async () => {
    const response = await call(h, 'GET', '/v1/themes', { key: env.publicKey, origin: env.origin });
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('RateLimit-Remaining'), '2');
  });

  it('lets the key in again when the window ends', async () => {
    clock.advance(45_000);
    const response = await get(env.secretKey);
    assert.equal(response.status, 200);
    assert.deepEqual(limits(response), { limit: '3', remaining: '2', reset: '60' });
  });

  it('does not count requests without a valid key (they never reach the counter)', async () => {
    const response = await call(h, 'GET', '/v1/environments', { key: 'sk_unknownunknownunknownunknownunknown' });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('RateLimit-Limit'), null);
  });
});

describe('Public Key rate limit', () => {
  // A Public Key is in its site's page code and anything but a browser forges an Origin at will.
  const { h, env } = useHarness({ config: { IMPORTD_RATE_LIMIT: '3', IMPORTD_RATE_WINDOW_SECONDS: '60' } });
  const asPage = (address: string, origin = env.origin) => call(h, 'GET', '/v1/themes', { key: env.publicKey, origin, address });
  const remaining = (response: Response) => response.headers.get('RateLimit-Remaining');

  it('does not count a Public Key request refused for its origin or its kind', async () => {
    for (let i = 0; i < 5; i++) {
      const foreign = await asPage('198.51.100.7', 'https://evil.example.net');
      assert.equal(foreign.status, 403);
      assert.equal((await json(foreign)).error.code, 'origin_not_allowed');
      assert.equal(foreign.headers.get('RateLimit-Limit'), null);
      const wrongKind = await call(h, 'GET', '/v1/environments', { key: env.publicKey, origin: env.origin, address: '198.51.100.7' });
      assert.equal(wrongKind.status, 403);
      assert.equal((await json(wrongKind)).error.code, 'wrong_key_kind');
      assert.equal(wrongKind.headers.get('RateLimit-Limit'), null);
    }
    const allowed = await asPage('198.51.100.7');
    assert.equal(allowed.status, 404);
    assert.equal(remaining(allowed), '2');
  });

  it('counts a Public Key per client address: one client past the limit leaves the others their allowance', async () => {
    for (const left of ['1', '0']) assert.equal(remaining(await asPage('198.51.100.7')), left);
    const refused = await asPage('198.51.100.7');
    assert.equal(refused.status, 429);
    assert.equal((await json(refused)).error.code, 'rate_limited');
    assert.equal(refused.headers.get('Access-Control-Allow-Origin'), env.origin);
    const other = await asPage('203.0.113.9');
    assert.equal(other.status, 404);
    assert.equal(remaining(other), '2');
    // The same IPv4 client over an IPv4-mapped IPv6 socket.
    assert.equal((await asPage('::ffff:198.51.100.7')).status, 429);
  });

  it('counts IPv6 clients by their /64, so walking the addresses of one block does not reset the count', async () => {
    assert.equal(remaining(await asPage('2001:db8:1:2::1')), '2');
    assert.equal(remaining(await asPage('2001:db8:1:2:ffff::99')), '1');
    assert.equal(remaining(await asPage('2001:db8:1:3::1')), '2');
  });

  it('counts a Secret Key per key, whatever the address', async () => {
    const from = (address: string) => call(h, 'GET', '/v1/environments', { key: env.secretKey, address });
    assert.equal(remaining(await from('198.51.100.7')), '2');
    assert.equal(remaining(await from('203.0.113.9')), '1');
  });
});

describe('Public Key rate limit over real sockets', () => {
  const { env, server } = useLiveHarness({ config: { IMPORTD_RATE_LIMIT: '2', IMPORTD_RATE_WINDOW_SECONDS: '60' } });
  // Loopback is all of 127.0.0.0/8 on Linux: two source addresses are two clients.
  const fromAddress = (localAddress: string) =>
    new Promise<{ status: number; remaining: unknown }>((resolve, reject) => {
      const headers = { 'X-Public-Key': env.publicKey, Origin: env.origin };
      httpGet(`${server.url}/v1/themes`, { localAddress, headers, agent: false }, (response) => {
        response.resume();
        resolve({ status: response.statusCode!, remaining: response.headers['ratelimit-remaining'] });
      }).on('error', reject);
    });

  it("takes the client's address from the socket", async () => {
    assert.deepEqual(await fromAddress('127.0.0.1'), { status: 404, remaining: '1' });
    assert.deepEqual(await fromAddress('127.0.0.1'), { status: 404, remaining: '0' });
    assert.equal((await fromAddress('127.0.0.1')).status, 429);
    assert.deepEqual(await fromAddress('127.0.0.2'), { status: 404, remaining: '1' });
  });
});

describe('rate limit disabled', () => {
  it('IMPORTD_RATE_LIMIT=0 lets every request through without RateLimit headers', async () => {
    const h = await createHarness({ config: { IMPORTD_RATE_LIMIT: '0' } });
    try {
      const env = await createTestEnvironment(h);
      for (let i = 0; i < 50; i++) {
        const response = await call(h, 'GET', '/v1/environments', { key: env.secretKey });
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('RateLimit-Limit'), null);
      }
    } finally {
      h.close();
    }
  });
});

describe('per-account rate limit (IMPORTD_ACCOUNT_RATE_LIMIT)', () => {
  const { h, env, staging, other } = useHarness({
    clock: testClock('2026-01-31T12:00:00.000Z'),
    config: { IMPORTD_RATE_LIMIT: '4', IMPORTD_ACCOUNT_RATE_LIMIT: '6', IMPORTD_RATE_WINDOW_SECONDS: '60' },
    environments: { staging: { name: 'staging' }, other: { account: 'other-account' } },
  });
  const get = (key: string) => call(h, 'GET', '/v1/environments', { key });

  it("counts every key of the account together: a second environment's key does not bring a second allowance", async () => {
    for (let i = 0; i < 4; i++) assert.equal((await get(env.secretKey)).status, 200);
    assert.equal((await get(staging.secretKey)).status, 200);
    assert.equal((await get(staging.secretKey)).status, 200);
    const refused = await get(staging.secretKey);
    assert.equal(refused.status, 429);
    const body = await json(refused);
    assert.equal(body.error.code, 'rate_limited');
    assert.match(body.error.message, /IMPORTD_ACCOUNT_RATE_LIMIT/);
    assert.ok(Number(refused.headers.get('Retry-After')) > 0);
    assert.equal((await get(other.secretKey)).status, 200, "another account's allowance is its own");
  });
});
