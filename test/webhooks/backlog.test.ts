import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sendDueDeliveries } from '../../src/services/webhooks';
import { createTestEnvironment } from '../helpers/harness';
import { startReceiver } from '../helpers/webhook-receiver';
import { deliveries, postImport, registerWebhook, webhookHarness } from './helpers';

// Issue 41: the sender shares its throughput between accounts, so one account's backlog of events (each fanned
// out to many endpoints) does not hold back another account's first delivery until it is worked off.

const ENDPOINTS = 20;
const EVENTS = 30;

describe("webhooks: one account's backlog and another's first delivery", () => {
  it("sends another account's event among the first deliveries of the pass, not after the backlog written before it", async () => {
    const { h, env } = await webhookHarness({ IMPORTD_RATE_LIMIT: '0' });
    const receiver = await startReceiver();
    try {
      for (let i = 0; i < ENDPOINTS; i += 1) await registerWebhook(h, env, { url: receiver.url(`/busy/${i}`), events: ['import.completed'] });
      // The backlog: every event older than the other account's, none fanned out yet.
      for (let i = 0; i < EVENTS; i += 1) await postImport(h, env);
      const other = await createTestEnvironment(h, { name: 'production', account: 'other' });
      const first = await registerWebhook(h, other, { url: receiver.url('/other') });
      await postImport(h, other);
      assert.equal(await sendDueDeliveries(h.ctx), ENDPOINTS * EVENTS + 1, 'one pass sends every delivery');
      const position = receiver.received.findIndex((request) => request.path === '/other');
      assert.ok(position >= 0 && position < 50, `the other account's delivery came ${position + 1}th of ${receiver.received.length}`);
      assert.equal((await deliveries(h, other, first.id))[0]!.status, 'delivered');
    } finally {
      await receiver.close();
      await h.close();
    }
  });
});
