import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, createHarness, createTestEnvironment, json, testClock } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

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
    const response = await call(h, 'GET', '/v1/environments', { key: env.publicKey, origin: env.origin });
    assert.equal(response.status, 403);
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
