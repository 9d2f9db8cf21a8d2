import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sendDueDeliveries } from '../../src/services/webhooks';
import { call, createTestEnvironment } from '../helpers/harness';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { deliveries, postImport, registerWebhook, webhookHarness } from './helpers';

/** Makes the receiver never answer, counting the requests it holds open now and at most. */
function holdOpen(receiver: Receiver) {
  const held = { open: 0, mostOpen: 0 };
  receiver.answer((response) => {
    held.open += 1;
    held.mostOpen = Math.max(held.mostOpen, held.open);
    response.on('close', () => (held.open -= 1));
  });
  return held;
}

describe('webhooks: an endpoint that never answers does not hold up the others', () => {
  it("sends another account's event while the hanging endpoint's attempts wait for their timeout, and holds at most 4 of them at once", async () => {
    const { h, env } = await webhookHarness({ IMPORTD_WEBHOOK_TIMEOUT_SECONDS: '1' });
    const hanging = await startReceiver();
    const healthy = await startReceiver();
    try {
      const held = holdOpen(hanging);
      const stuck = await registerWebhook(h, env, { url: hanging.url() });
      // Its backlog is older than the other account's event: first in line by due time.
      for (let i = 0; i < 12; i += 1) await postImport(h, env);
      const other = await createTestEnvironment(h, { name: 'production', account: 'other' });
      const fine = await registerWebhook(h, other, { url: healthy.url() });
      await postImport(h, other);
      let hangingSeenFirst = -1;
      let pendingUntried = -1;
      const delivered = new Promise<void>((resolve) => {
        healthy.answer((response) => {
          hangingSeenFirst = hanging.received.length;
          response.writeHead(204).end();
          resolve();
        });
      });
      const sending = sendDueDeliveries(h.ctx);
      await Promise.race([delivered, sending.then(() => assert.fail("the pass ended before the other account's event was sent"))]);
      pendingUntried = (await deliveries(h, env, stuck.id)).filter((d) => d.attempts === 0).length;
      await sending;
      assert.ok(hangingSeenFirst <= 4, `the hanging endpoint held ${hangingSeenFirst} attempts when the other was sent`);
      assert.equal(pendingUntried, 12, 'no attempt to the hanging endpoint had ended (timed out) before the other was sent');
      const [log] = await deliveries(h, other, fine.id);
      assert.equal(log!.status, 'delivered');
      // The pass ended once every due delivery was tried: each of the 12 once, never more than 4 at once.
      assert.equal(hanging.received.length, 12);
      assert.equal(held.mostOpen, 4);
      assert.equal((await deliveries(h, env, stuck.id)).filter((d) => d.attempts === 1 && d.status === 'pending').length, 12);
      assert.equal((await call(h, 'GET', '/v1/webhooks', { key: env.secretKey })).status, 200);
    } finally {
      await hanging.close();
      await healthy.close();
      await h.close();
    }
  });

  it('sends an event written while the hanging endpoint holds its attempts at once, not after their timeout', async () => {
    const { h, env } = await webhookHarness({ IMPORTD_WEBHOOK_TIMEOUT_SECONDS: '3' });
    const hanging = await startReceiver();
    const healthy = await startReceiver();
    try {
      hanging.answer(() => undefined);
      await registerWebhook(h, env, { url: hanging.url() });
      for (let i = 0; i < 4; i += 1) await postImport(h, env);
      const other = await createTestEnvironment(h, { name: 'production', account: 'other' });
      const fine = await registerWebhook(h, other, { url: healthy.url() });
      // A poll far past the timeout: only the event's wake can start its delivery before the hanging attempts end.
      const sending = sendDueDeliveries(h.ctx, undefined, undefined, { pollMs: 60_000 });
      while (hanging.received.length < 4) await new Promise((resolve) => setTimeout(resolve, 10));
      let waited = -1;
      let written = 0;
      const delivered = new Promise<void>((resolve) => {
        healthy.answer((response) => {
          waited = Date.now() - written;
          response.writeHead(204).end();
          resolve();
        });
      });
      written = Date.now();
      await postImport(h, other);
      await delivered;
      const stillHanging = hanging.received.length;
      await sending;
      assert.ok(waited < 1500, `the event was sent ${waited} ms after it was written, behind attempts with a 3000 ms timeout`);
      assert.equal(stillHanging, 4);
      assert.equal((await deliveries(h, other, fine.id))[0]!.status, 'delivered');
    } finally {
      await hanging.close();
      await healthy.close();
      await h.close();
    }
  });

  it('reports an attempt that could not be recorded at once, while the pass goes on', async () => {
    const { h, env } = await webhookHarness({ IMPORTD_WEBHOOK_TIMEOUT_SECONDS: '2' });
    const hanging = await startReceiver();
    const healthy = await startReceiver();
    const record = h.ctx.store.webhooks.recordAttempt;
    try {
      hanging.answer(() => undefined);
      healthy.answer((response) => response.writeHead(204).end());
      await registerWebhook(h, env, { url: hanging.url() });
      await postImport(h, env);
      const other = await createTestEnvironment(h, { name: 'production', account: 'other' });
      await registerWebhook(h, other, { url: healthy.url() });
      await postImport(h, other);
      h.ctx.store.webhooks.recordAttempt = async (attempt) => {
        if (attempt.ok) throw new Error('the database is gone');
        return await record(attempt);
      };
      let passEnded = false;
      const reported = new Promise<{ error: unknown; passEnded: boolean }>((resolve) => {
        const report = { attempted: () => undefined, failed: (error: unknown) => resolve({ error, passEnded }) };
        void sendDueDeliveries(h.ctx, report).then(() => (passEnded = true));
      });
      const { error, passEnded: endedFirst } = await reported;
      assert.match(String(error), /the database is gone/);
      assert.equal(endedFirst, false, 'reported while the hanging attempt was still in flight');
      while (!passEnded) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      h.ctx.store.webhooks.recordAttempt = record;
      await hanging.close();
      await healthy.close();
      await h.close();
    }
  });

  it("holds at most 8 attempts of one account's endpoints, so an account with several hanging endpoints does not take every slot", async () => {
    const { h, env } = await webhookHarness({ IMPORTD_WEBHOOK_TIMEOUT_SECONDS: '1' });
    const hanging = await startReceiver();
    const healthy = await startReceiver();
    try {
      const held = holdOpen(hanging);
      // Four endpoints of one account, each with 4 deliveries: 16, as many as the sender's slots.
      for (const path of ['a', 'b', 'c', 'd']) await registerWebhook(h, env, { url: `${hanging.url()}/${path}` });
      for (let i = 0; i < 4; i += 1) await postImport(h, env);
      const other = await createTestEnvironment(h, { name: 'production', account: 'other' });
      const fine = await registerWebhook(h, other, { url: healthy.url() });
      await postImport(h, other);
      let openWhenSent = -1;
      const delivered = new Promise<void>((resolve) => {
        healthy.answer((response) => {
          openWhenSent = held.open;
          response.writeHead(204).end();
          resolve();
        });
      });
      const sending = sendDueDeliveries(h.ctx);
      await Promise.race([delivered, sending.then(() => assert.fail("the pass ended before the other account's event was sent"))]);
      const answeredWhenSent = hanging.received.length - held.open;
      await sending;
      assert.equal(answeredWhenSent, 0, "no hanging attempt had timed out when the other account's event was sent");
      assert.ok(openWhenSent <= 8, `the account held ${openWhenSent} attempts`);
      assert.equal(held.mostOpen, 8);
      assert.equal(hanging.received.length, 16, 'every delivery tried once');
      assert.equal((await deliveries(h, other, fine.id))[0]!.status, 'delivered');
    } finally {
      await hanging.close();
      await healthy.close();
      await h.close();
    }
  });

  it('looks at one window of endpoints per claim, going round them, and still tries every due delivery in one pass', async () => {
    const { h, env } = await webhookHarness();
    const receiver = await startReceiver();
    try {
      receiver.answer((response) => response.writeHead(204).end());
      const ids: string[] = [];
      for (const path of ['a', 'b', 'c']) ids.push((await registerWebhook(h, env, { url: `${receiver.url()}/${path}` })).id);
      for (let i = 0; i < 2; i += 1) await postImport(h, env);
      assert.equal(await sendDueDeliveries(h.ctx, undefined, undefined, { window: 1 }), 6);
      for (const id of ids) assert.deepEqual((await deliveries(h, env, id)).map((d) => d.status), ['delivered', 'delivered']);
      assert.equal(await sendDueDeliveries(h.ctx, undefined, undefined, { window: 1 }), 0);
    } finally {
      await receiver.close();
      await h.close();
    }
  });

  it('goes on to the next window past one with nothing due, rather than ending the pass', async () => {
    const { h, env } = await webhookHarness();
    const failing = await startReceiver();
    const healthy = await startReceiver();
    try {
      failing.answer((response) => response.writeHead(500).end());
      healthy.answer((response) => response.writeHead(204).end());
      // Registered first, so first in id order (UUIDv7: a later millisecond): its deliveries fail and wait for their retry.
      const retrying = await registerWebhook(h, env, { url: failing.url(), events: ['import.completed'] });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const later = await registerWebhook(h, env, { url: healthy.url(), events: ['import.deleted'] });
      assert.ok(retrying.id < later.id);
      await postImport(h, env);
      const deleted = await postImport(h, env);
      assert.equal(await sendDueDeliveries(h.ctx, undefined, undefined, { window: 1 }), 2);
      // Deleting an import erases its events: the first import's retry stays, the deletion goes to the other.
      assert.equal((await call(h, 'DELETE', `/v1/imports/${deleted.id}`, { key: env.secretKey })).status, 200);
      assert.deepEqual((await deliveries(h, env, retrying.id)).map((d) => d.status), ['pending']);
      // The first window holds only that retry, not yet due; the deletion's delivery is in the second.
      assert.equal(await sendDueDeliveries(h.ctx, undefined, undefined, { window: 1 }), 1);
      assert.equal((await deliveries(h, env, later.id))[0]!.status, 'delivered');
    } finally {
      await failing.close();
      await healthy.close();
      await h.close();
    }
  });
});
