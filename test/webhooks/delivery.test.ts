import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { sendDueDeliveries, startWebhookSender } from '../../src/services/webhooks';
import { call, createTestEnvironment, createTestSession, json, type Harness, type TestEnvironment } from '../helpers/harness';
import { waitFor } from '../helpers/live-server';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { deliveries, postImport, registerWebhook, webhookHarness } from './helpers';

describe('webhooks: delivery to a real local receiver', () => {
  let h: Harness;
  let env: TestEnvironment;
  let clock: Awaited<ReturnType<typeof webhookHarness>>['clock'];
  let receiver: Receiver;
  before(async () => {
    ({ h, env, clock } = await webhookHarness({ IMPORTD_WEBHOOK_RETRY_SCHEDULE: '5,60', IMPORTD_WEBHOOK_TIMEOUT_SECONDS: '1' }));
  });
  after(() => h.close());
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await receiver.close();
    for (const hook of (await json(await call(h, 'GET', '/v1/webhooks', { key: env.secretKey }))).data) {
      await call(h, 'DELETE', `/v1/webhooks/${hook.id}`, { key: env.secretKey });
    }
  });

  it('signs import.completed per Standard Webhooks; the customer verifies it with the standardwebhooks package', async () => {
    const hook = await registerWebhook(h, env, { url: receiver.url() });
    const created = await postImport(h, env, [{ name: 'Ada' }, { name: 'Bob' }]);
    // The import answered without any delivery: the sender works apart from requests.
    assert.equal(receiver.received.length, 0);
    assert.equal(await sendDueDeliveries(h.ctx), 1);
    assert.equal(receiver.received.length, 1);
    const [request] = receiver.received;
    const headers = request!.headers as Record<string, string>;
    assert.match(headers['webhook-id']!, /^evt_/);
    assert.equal(headers['content-type'], 'application/json');
    const verified = new Webhook(hook.secret).verify(request!.body, headers) as Record<string, any>;
    assert.equal(verified.type, 'import.completed');
    assert.equal(verified.data.id, created.id);
    assert.equal(verified.data.rowCount, 2);
    assert.equal(verified.data.environment, env.name);
    assert.deepEqual(Object.keys(verified.data).sort(), [...Object.keys(created), 'environment'].sort());
    // A wrong secret does not verify.
    assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(request!.body, headers));
    const [log] = await deliveries(h, env, hook.id);
    assert.equal(log!.status, 'delivered');
    assert.equal(log!.attempts, 1);
    assert.equal(log!.lastStatusCode, 200);
    assert.equal(log!.lastResponse, 'ok');
    assert.equal(log!.eventId, headers['webhook-id']);
    assert.equal(log!.nextAttemptAt, null);
  });

  it('retries a 500 on the schedule with the same webhook-id, then never sends again after the 2xx', async () => {
    const hook = await registerWebhook(h, env, { url: receiver.url(), events: ['import.completed'] });
    receiver.answer({ status: 500, body: 'x'.repeat(5000) });
    await postImport(h, env);
    await sendDueDeliveries(h.ctx);
    let [log] = await deliveries(h, env, hook.id);
    assert.equal(log!.status, 'pending');
    assert.equal(log!.attempts, 1);
    assert.equal(log!.lastStatusCode, 500);
    assert.equal(Buffer.byteLength(log!.lastResponse), 256, 'only an excerpt of the answer is kept');
    // Not due before the first wait (5 s) is over.
    clock.advance(4_000);
    assert.equal(await sendDueDeliveries(h.ctx), 0);
    clock.advance(1_000);
    receiver.answer({ status: 204 });
    assert.equal(await sendDueDeliveries(h.ctx), 1);
    [log] = await deliveries(h, env, hook.id);
    assert.equal(log!.status, 'delivered');
    assert.equal(log!.attempts, 2);
    assert.equal(receiver.received.length, 2);
    assert.equal(receiver.received[0]!.headers['webhook-id'], receiver.received[1]!.headers['webhook-id']);
    clock.advance(86_400_000);
    assert.equal(await sendDueDeliveries(h.ctx), 0);
    assert.equal(receiver.received.length, 2);
  });

  it('records an answer holding NUL (PostgreSQL text cannot), so the delivered event is not sent again', async () => {
    const hook = await registerWebhook(h, env, { url: receiver.url() });
    receiver.answer({ status: 200, body: 'ok\0done' });
    await postImport(h, env);
    assert.equal(await sendDueDeliveries(h.ctx), 1);
    const [log] = await deliveries(h, env, hook.id);
    assert.equal(log!.status, 'delivered');
    assert.equal(log!.lastResponse, 'ok\uFFFDdone');
    clock.advance(86_400_000);
    assert.equal(await sendDueDeliveries(h.ctx), 0);
    assert.equal(receiver.received.length, 1);
  });

  it('counts a receiver slower than the timeout as a failure, and fails the delivery once the schedule is over', async () => {
    const hook = await registerWebhook(h, env, { url: receiver.url() });
    receiver.answer(() => undefined); // never answers
    await postImport(h, env);
    await sendDueDeliveries(h.ctx);
    let [log] = await deliveries(h, env, hook.id);
    assert.equal(log!.status, 'pending');
    assert.match(log!.lastError, /timed out after 1000 ms/);
    assert.equal(log!.lastStatusCode, null);
    receiver.answer({ status: 302, body: 'elsewhere' });
    clock.advance(5_000);
    await sendDueDeliveries(h.ctx);
    clock.advance(60_000);
    await sendDueDeliveries(h.ctx);
    [log] = await deliveries(h, env, hook.id);
    assert.equal(log!.status, 'failed', 'a redirect is a failure and is not followed');
    assert.equal(log!.attempts, 3);
    assert.equal(log!.lastStatusCode, 302);
    assert.equal(log!.nextAttemptAt, null);
    assert.equal(receiver.received.length, 3);
    clock.advance(86_400_000);
    assert.equal(await sendDueDeliveries(h.ctx), 0);
  });

  it('redelivers an event on request, even after a 2xx', async () => {
    const hook = await registerWebhook(h, env, { url: receiver.url() });
    await postImport(h, env);
    await sendDueDeliveries(h.ctx);
    const [log] = await deliveries(h, env, hook.id);
    const response = await call(h, 'POST', `/v1/webhooks/${hook.id}/deliveries/${log!.eventId}/redeliver`, { key: env.secretKey });
    assert.equal(response.status, 200);
    assert.deepEqual(await json(response), { eventId: log!.eventId, deliveries: 1 });
    await sendDueDeliveries(h.ctx);
    assert.equal(receiver.received.length, 2);
    assert.equal(receiver.received[1]!.headers['webhook-id'], log!.eventId);
    const unknown = await call(h, 'POST', `/v1/webhooks/${hook.id}/deliveries/evt_unknown/redeliver`, { key: env.secretKey });
    assert.equal(unknown.status, 404);
  });

  it('sends import.deleted and end_user.deleted, each to the endpoints subscribed to it', async () => {
    const all = await registerWebhook(h, env, { url: receiver.url('/all') });
    await registerWebhook(h, env, { url: receiver.url('/completed'), events: ['import.completed'] });
    const session = await createTestSession(h, env, { endUserId: 'user-7' });
    const viaSdk = await call(h, 'POST', '/v1/imports', {
      key: env.publicKey,
      origin: env.origin,
      session: session.sessionToken,
      body: { meta: { schemaKey: 'contacts' }, rows: [{ a: 1 }] },
    });
    assert.equal(viaSdk.status, 201);
    const other = await postImport(h, env);
    await sendDueDeliveries(h.ctx);
    assert.equal((await call(h, 'DELETE', `/v1/imports/${other.id}`, { key: env.secretKey })).status, 200);
    assert.equal((await call(h, 'DELETE', '/v1/end-users/user-7', { key: env.secretKey })).status, 200);
    await sendDueDeliveries(h.ctx);
    const types = (path: string) => receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body).type).sort();
    assert.deepEqual(types('/all'), ['end_user.deleted', 'import.completed', 'import.completed', 'import.deleted']);
    assert.deepEqual(types('/completed'), ['import.completed', 'import.completed']);
    const deleted = receiver.received.find((r) => r.path === '/all' && JSON.parse(r.body).type === 'import.deleted')!;
    assert.deepEqual(JSON.parse(deleted.body).data, { id: other.id });
    const endUser = receiver.received.find((r) => JSON.parse(r.body).type === 'end_user.deleted')!;
    assert.deepEqual(JSON.parse(endUser.body).data, { endUserId: 'user-7' });
    // The events about what was deleted are erased with it (they hold its data): only the deletion notices stay.
    const stored = await h.sql('SELECT type FROM webhook_events WHERE id IN (SELECT event_id FROM webhook_deliveries WHERE endpoint_id = ?) ORDER BY type', all.id);
    assert.deepEqual(stored, [{ type: 'end_user.deleted' }, { type: 'import.deleted' }]);
    assert.equal((await deliveries(h, env, all.id)).length, 2);
  });

  it('does not send an import.completed not yet delivered when the import is deleted meanwhile', async () => {
    await registerWebhook(h, env, { url: receiver.url() });
    const created = await postImport(h, env);
    await call(h, 'DELETE', `/v1/imports/${created.id}`, { key: env.secretKey });
    await sendDueDeliveries(h.ctx);
    assert.deepEqual(receiver.received.map((r) => JSON.parse(r.body).type), ['import.deleted']);
  });

  it("never sends an environment's events to another environment's or account's endpoint", async () => {
    const staging = await createTestEnvironment(h, { name: 'staging' });
    const stranger = await createTestEnvironment(h, { name: 'production', account: 'stranger' });
    await registerWebhook(h, staging, { url: receiver.url('/staging'), events: ['import.completed', 'import.deleted'] });
    await registerWebhook(h, stranger, { url: receiver.url('/stranger') });
    const mine = await postImport(h, env);
    await call(h, 'DELETE', `/v1/imports/${mine.id}`, { key: env.secretKey });
    await call(h, 'DELETE', '/v1/end-users/someone', { key: env.secretKey });
    await sendDueDeliveries(h.ctx);
    assert.equal(receiver.received.length, 0);
    await postImport(h, staging);
    await sendDueDeliveries(h.ctx);
    assert.deepEqual(receiver.received.map((r) => r.path), ['/staging']);
    for (const e of [staging, stranger]) {
      for (const hook of (await json(await call(h, 'GET', '/v1/webhooks', { key: e.secretKey }))).data) {
        await call(h, 'DELETE', `/v1/webhooks/${hook.id}`, { key: e.secretKey });
      }
    }
  });

  it('writes no event when no endpoint subscribes', async () => {
    const events = async () => (await h.sql<{ n: number }>('SELECT count(*) AS n FROM webhook_events'))[0]!.n;
    const before = await events();
    await registerWebhook(h, env, { url: receiver.url(), events: ['import.deleted'] });
    await postImport(h, env);
    await call(h, 'DELETE', '/v1/end-users/nobody', { key: env.secretKey });
    assert.equal(await events(), before);
  });

  it("wakes the running sender with the import's event, once the import has answered", async () => {
    await registerWebhook(h, env, { url: receiver.url() });
    const failures: unknown[] = [];
    // A poll far past the test: only the event's wake can start the delivery.
    const sender = startWebhookSender(h.ctx, { attempted: () => undefined, failed: (error) => failures.push(error) }, 600_000);
    const store = h.ctx.store.webhooks;
    const claimDue = store.claimDue;
    let answered = false;
    const claims: boolean[] = [];
    store.claimDue = async (claim) => {
      claims.push(answered);
      return await claimDue.call(store, claim);
    };
    try {
      // The sender's first pass (nothing due: a few milliseconds) is over and it waits.
      await new Promise((resolve) => setTimeout(resolve, 300));
      claims.length = 0;
      await postImport(h, env);
      answered = true;
      await waitFor(() => receiver.received.length > 0);
      assert.equal(receiver.received.length, 1);
      assert.deepEqual(claims.slice(0, 1), [true]);
      assert.deepEqual(failures, []);
    } finally {
      store.claimDue = claimDue;
      await sender.stop();
    }
  });
});
