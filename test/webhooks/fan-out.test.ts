import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sendDueDeliveries } from '../../src/services/webhooks';
import { call, createTestSession, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { startReceiver } from '../helpers/webhook-receiver';

// Issue 41: one request's cost is bounded however many endpoints or environments an account has.

describe('webhooks: caps per account (IMPORTD_MAX_WEBHOOKS_PER_ACCOUNT, IMPORTD_MAX_ENVIRONMENTS_PER_ACCOUNT)', () => {
  const { h, env, other } = useHarness({
    config: { IMPORTD_MAX_WEBHOOKS_PER_ACCOUNT: '3', IMPORTD_MAX_ENVIRONMENTS_PER_ACCOUNT: '3', IMPORTD_WEBHOOK_ALLOW_PRIVATE: 'true' },
    environments: { other: { account: 'other-account' } },
  });

  it('refuses an environment past the cap with 409 limit_reached naming the setting, counting live ones only, and not in other accounts', async () => {
    const create = (name: string, key = env.secretKey) => call(h, 'POST', '/v1/environments', { key, body: { name, allowedOrigins: [] } });
    // `env` is the account's first: two more fit.
    assert.equal((await create('second')).status, 201);
    assert.equal((await create('third')).status, 201);
    const refused = await create('fourth');
    assert.equal(refused.status, 409);
    const body = await json(refused);
    assert.equal(body.error.code, 'limit_reached');
    assert.match(body.error.message, /IMPORTD_MAX_ENVIRONMENTS_PER_ACCOUNT/);
    assert.equal((await json(await call(h, 'GET', '/v1/environments', { key: env.secretKey }))).data.length, 3, 'nothing written');
    assert.equal((await create('fourth', other.secretKey)).status, 201, "another account's cap is its own");
    // Two creates at once at the cap minus one: exactly one passes (the store counts in the create's transaction).
    await h.ctx.store.environments.delete((await h.ctx.store.environments.findByName(env.accountId, 'third'))!.id, new Date().toISOString());
    const raced = await Promise.all([create('racer-a'), create('racer-b')]);
    assert.deepEqual(raced.map((r) => r.status).sort(), [201, 409]);
  });

  it('refuses a webhook past the account cap with 409 limit_reached naming the setting, across environments', async () => {
    const second = await json(await call(h, 'POST', '/v1/environments', { key: other.secretKey, body: { name: 'second', allowedOrigins: [] } }));
    const register = (key: string, i: number) => call(h, 'POST', '/v1/webhooks', { key, body: { url: `https://hooks.example.com/${i}` } });
    assert.equal((await register(other.secretKey, 1)).status, 201);
    assert.equal((await register(second.secretKey.key, 2)).status, 201);
    const raced = await Promise.all([register(other.secretKey, 3), register(second.secretKey.key, 4)]);
    assert.deepEqual(raced.map((r) => r.status).sort(), [201, 409], 'two registrations at once cannot both pass the cap');
    const refused = await register(second.secretKey.key, 5);
    assert.equal(refused.status, 409);
    const body = await json(refused);
    assert.equal(body.error.code, 'limit_reached');
    assert.match(body.error.message, /IMPORTD_MAX_WEBHOOKS_PER_ACCOUNT/);
    assert.equal(Number((await h.sql<{ n: number }>('SELECT count(*) AS n FROM webhook_endpoints WHERE account_id = ?', other.accountId))[0]!.n), 3);
    assert.equal((await register(env.secretKey, 6)).status, 201, "another account's endpoints do not count");
  });
});

describe('webhooks: an event is stored once, its deliveries made by the sender', () => {
  const { h, env, staging } = useHarness({
    config: { IMPORTD_WEBHOOK_ALLOW_PRIVATE: 'true', IMPORTD_MAX_WEBHOOKS_PER_ACCOUNT: '100', IMPORTD_WEBHOOK_MAX_ENDPOINTS: '100' },
    environments: { staging: { name: 'staging' } },
  });
  const count = async (table: string) => Number((await h.sql<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))[0]!.n);

  it('answers an erasure of an end-user with nothing stored with no event at all', async () => {
    await call(h, 'POST', '/v1/webhooks', { key: env.secretKey, body: { url: 'https://hooks.example.com/erasure', events: ['end_user.deleted'] } });
    for (let i = 0; i < 5; i++) assert.equal((await call(h, 'DELETE', `/v1/end-users/nobody-${i}`, { key: env.secretKey })).status, 200);
    assert.equal(await count('webhook_events'), 0);
    assert.equal(await count('webhook_deliveries'), 0);
  });

  it('writes one event row and no delivery in the request, then the sender makes one delivery per endpoint, batch by batch', async () => {
    const receiver = await startReceiver();
    try {
      await h.sql('DELETE FROM webhook_endpoints');
      for (let i = 0; i < 70; i++) {
        const key = i % 2 === 0 ? env.secretKey : staging.secretKey;
        const created = await call(h, 'POST', '/v1/webhooks', { key, body: { url: `${receiver.url(`/hook/${i}`)}`, events: ['end_user.deleted'] } });
        assert.equal(created.status, 201);
      }
      await createTestSession(h, env, { endUserId: 'ada' });
      assert.equal((await call(h, 'DELETE', '/v1/end-users/ada', { key: env.secretKey })).status, 200);
      assert.equal(await count('webhook_events'), 1);
      assert.equal(await count('webhook_deliveries'), 0, 'no delivery row in the erasure request');
      // One fan-out makes at most its batch for the event.
      const first = await h.ctx.store.webhooks.fanOut(null, 4, 64);
      assert.equal(first.created, 64);
      assert.equal(await sendDueDeliveries(h.ctx), 70, 'the pass fans the rest out and sends every one');
      assert.equal(receiver.received.length, 70);
      assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 1, 'one event');
    } finally {
      await receiver.close();
    }
  });
});
