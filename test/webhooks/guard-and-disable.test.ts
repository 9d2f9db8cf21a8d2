import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { postWebhook } from '../../src/services/webhooks/post-webhook';
import { purgeExpiredImports } from '../../src/services/compliance';
import { sendDueDeliveries } from '../../src/services/webhooks';
import { isPublicAddress } from '../../src/services/webhooks/target-address';
import { call, createTestSession, json } from '../helpers/harness';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { deliveries, postImport, registerWebhook, webhookHarness } from './helpers';

describe('webhooks: the SSRF guard', () => {
  const cases: [string, boolean][] = [
    ['93.184.215.14', true],
    ['8.8.8.8', true],
    ['2606:4700::6810:84e5', true],
    ['127.0.0.1', false],
    ['127.255.0.1', false],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.251', false],
    ['255.255.255.255', false],
    ['240.0.0.1', false],
    ['::', false],
    ['::1', false],
    ['fe80::1', false],
    ['fd00:ec2::254', false],
    ['fc00::1', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::a00:1', false],
    ['2002:7f00:1::', false],
    ['::7f00:1', false],
    ['::a00:1', false],
    ['::808:808', false],
    ['2001:db8::1', false],
    ['3fff::1', false],
    ['4000::1', false],
    ['not an address', false],
  ];
  for (const [address, expected] of cases) {
    it(`${address} is ${expected ? '' : 'not '}public`, () => assert.equal(isPublicAddress(address), expected));
  }

  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());
  const options = { timeoutMs: 2000, allowPrivate: false, at: new Date() };
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

  it('refuses at delivery a name that resolves to loopback (checked in the lookup the socket connects with)', async () => {
    const outcome = await postWebhook(`http://localhost:${receiver.port}/hook`, secret, 'evt_1', '{}', options);
    assert.equal(outcome.ok, false);
    // Never the resolved address: a tenant could map internal names to private addresses with it.
    assert.equal(outcome.error, 'not a public address');
    assert.equal(receiver.received.length, 0);
  });

  it('refuses at delivery a literal private address', async () => {
    const outcome = await postWebhook(`http://127.0.0.1:${receiver.port}/hook`, secret, 'evt_1', '{}', options);
    assert.equal(outcome.error, 'not a public address');
    assert.equal(receiver.received.length, 0);
  });

  it('reaches the same receiver when IMPORTD_WEBHOOK_ALLOW_PRIVATE lifts the guard', async () => {
    const outcome = await postWebhook(`http://localhost:${receiver.port}/hook`, secret, 'evt_1', '{}', { ...options, allowPrivate: true });
    assert.equal(outcome.ok, true);
    assert.equal(receiver.received.length, 1);
  });
});

describe('webhooks: an endpoint failing for IMPORTD_WEBHOOK_DISABLE_AFTER_SECONDS is disabled', () => {
  it('records the block in the delivery log when the guard is on at delivery time', async () => {
    const { h, env } = await webhookHarness();
    const receiver = await startReceiver();
    try {
      const hook = await registerWebhook(h, env, { url: `http://localhost:${receiver.port}/hook` });
      h.ctx.config.webhooks.allowPrivate = false;
      await postImport(h, env);
      await sendDueDeliveries(h.ctx);
      const [log] = await deliveries(h, env, hook.id);
      assert.equal(log!.status, 'pending');
      assert.equal(log!.lastError, 'not a public address');
      assert.equal(receiver.received.length, 0);
    } finally {
      await receiver.close();
      await h.close();
    }
  });

  it('disables it with the reason shown, stops sending to it, and a success before then resets the streak', async () => {
    const { h, env, clock } = await webhookHarness({ IMPORTD_WEBHOOK_DISABLE_AFTER_SECONDS: '60', IMPORTD_WEBHOOK_RETRY_SCHEDULE: '30,30,30,30' });
    const receiver = await startReceiver();
    try {
      const hook = await registerWebhook(h, env, { url: receiver.url() });
      const active = async () => (await json(await call(h, 'GET', '/v1/webhooks', { key: env.secretKey }))).data[0];
      receiver.answer({ status: 503 });
      await postImport(h, env);
      await sendDueDeliveries(h.ctx);
      clock.advance(30_000);
      await sendDueDeliveries(h.ctx);
      // A success 30 s into the streak ends it.
      receiver.answer({ status: 200 });
      await postImport(h, env);
      await sendDueDeliveries(h.ctx);
      receiver.answer({ status: 503 });
      clock.advance(30_000);
      await sendDueDeliveries(h.ctx);
      assert.equal((await active()).active, true, 'failing for 30 s only since the success');
      clock.advance(30_000);
      await sendDueDeliveries(h.ctx);
      // Its first attempt goes with the one that disables the endpoint: its schedule has just begun.
      await postImport(h, env);
      clock.advance(30_000);
      await sendDueDeliveries(h.ctx);
      const disabled = await active();
      assert.equal(disabled.active, false);
      assert.match(disabled.disabledReason, /every attempt failed for 60 s .*last: HTTP 503/);
      const sent = receiver.received.length;
      await postImport(h, env);
      clock.advance(3_600_000);
      assert.equal(await sendDueDeliveries(h.ctx), 0);
      assert.equal(receiver.received.length, sent);
      const logs = await deliveries(h, env, hook.id);
      assert.equal(logs.length, 3, 'no delivery is queued for a disabled endpoint');
      assert.deepEqual(logs.map((log) => [log.status, log.attempts, log.nextAttemptAt]), [['failed', 1, null], ['delivered', 1, null], ['failed', 5, null]], 'none is left pending for good');
      const redeliver = (eventId: string) => call(h, 'POST', `/v1/webhooks/${hook.id}/deliveries/${eventId}/redeliver`, { key: env.secretKey });
      for (const log of logs) {
        const refused = await redeliver(log.eventId);
        assert.equal(refused.status, 409);
        assert.equal((await json(refused)).error.code, 'conflict');
      }
      assert.equal((await redeliver('evt_unknown')).status, 404);
    } finally {
      await receiver.close();
      await h.close();
    }
  });
});

describe('webhooks: retention', () => {
  it('IMPORTD_RETENTION_DAYS deletes events (and their delivery logs) as old as the imports it deletes', async () => {
    const { h, env, clock } = await webhookHarness({ IMPORTD_RETENTION_DAYS: '1' });
    try {
      const hook = await registerWebhook(h, env, { url: 'http://127.0.0.1:9/hook' });
      await postImport(h, env);
      // A session is something to erase.
      await createTestSession(h, env, { endUserId: 'someone' });
      await call(h, 'DELETE', '/v1/end-users/someone', { key: env.secretKey });
      await call(h, 'DELETE', '/v1/end-users/nobody', { key: env.secretKey });
      await h.ctx.store.webhooks.fanOut(null, 10, 10);
      assert.equal((await deliveries(h, env, hook.id)).length, 2, 'import.completed and one end_user.deleted: none for an end-user with nothing to erase');
      clock.advance(86_400_000 + 1);
      await postImport(h, env);
      await purgeExpiredImports(h.ctx);
      await h.ctx.store.webhooks.fanOut(null, 10, 10);
      const left = await deliveries(h, env, hook.id);
      assert.deepEqual(left.map((d) => d.type), ['import.completed']);
      assert.equal((await h.sql<{ n: number }>('SELECT count(*) AS n FROM webhook_events'))[0]!.n, 1);
    } finally {
      await h.close();
    }
  });
});
