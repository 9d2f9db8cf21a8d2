import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createHarness, createTestEnvironment, type Harness, type TestEnvironment } from '../helpers/harness';
import { waitFor } from '../helpers/live-server';
import { freePort, startServe, type ServerProcess } from '../helpers/process';
import { registerWebhook } from '../webhooks/helpers';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';

const post = (url: string, env: TestEnvironment, tag: string) =>
  fetch(`${url}/v1/imports`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ meta: { schemaKey: 'contacts' }, rows: [{ tag }] }),
  });

/** Sets up a database with one environment and an endpoint at `url`, then hands the file over to server processes. */
async function setUp(url: string) {
  const h = await createHarness({ config: { IMPORTD_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  const env = await createTestEnvironment(h);
  const hook = await registerWebhook(h, env, { url });
  return { h, env, hook };
}

const SERVE_ENV = { IMPORTD_WEBHOOK_ALLOW_PRIVATE: 'true', IMPORTD_WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1', IMPORTD_WEBHOOK_TIMEOUT_SECONDS: '1', IMPORTD_RATE_LIMIT: '0' };

describe('webhooks survive a crash: SIGKILL after the import answered 201, before delivery', () => {
  let h: Harness | undefined;
  let server: ServerProcess | undefined;
  let receiver: Receiver | undefined;
  after(async () => {
    await server?.stop();
    await receiver?.close();
    await h?.close();
  });

  it('delivers the event once the server is restarted', async () => {
    const port = await freePort(); // nothing listens there yet: the receiver is down
    const setup = await setUp(`http://127.0.0.1:${port}/hook`);
    h = setup.h;
    server = await startServe(h.dbPath, SERVE_ENV);
    const response = await post(server.url, setup.env, 'crash');
    assert.equal(response.status, 201);
    const { id } = (await response.json()) as { id: string };
    await server.stop('SIGKILL');
    server = undefined;
    // The event committed with the import; its delivery is made by the sender, before the kill or after the restart.
    const pending = await h.sql<{ id: string }>('SELECT id FROM webhook_events');
    assert.equal(pending.length, 1, 'the outbox row committed with the import');
    const deliveries = await h.sql<{ status: string }>('SELECT status FROM webhook_deliveries');
    assert.ok(deliveries.every((delivery) => delivery.status === 'pending') && deliveries.length <= 1, JSON.stringify(deliveries));

    receiver = await startReceiver(port);
    server = await startServe(h.dbPath, SERVE_ENV);
    // A delivery the killed process was attempting stays leased to it for the timeout (1 s) plus 5 s.
    await waitFor(() => receiver!.received.length === 1, 15_000);
    const [request] = receiver.received;
    assert.equal(request!.headers['webhook-id'], pending[0]!.id);
    const event = new Webhook(setup.hook.secret).verify(request!.body, request!.headers as Record<string, string>) as { data: { id: string } };
    assert.equal(event.data.id, id);
  });
});

describe('webhooks: two serve processes on one database deliver every event exactly once after a 2xx', () => {
  let h: Harness | undefined;
  const servers: ServerProcess[] = [];
  let receiver: Receiver | undefined;
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await receiver?.close();
    await h?.close();
  });

  it('leases each delivery to one sender at a time', async () => {
    receiver = await startReceiver();
    // Slow answers keep deliveries in flight while the other node claims.
    receiver.answer((res) => setTimeout(() => res.writeHead(200).end('ok'), 20));
    const setup = await setUp(receiver.url());
    h = setup.h;
    servers.push(await startServe(h.dbPath, SERVE_ENV), await startServe(h.dbPath, SERVE_ENV));
    const COUNT = 60;
    const answers = await Promise.all(Array.from({ length: COUNT }, (_, i) => post(servers[i % 2]!.url, setup.env, `n${i}`)));
    assert.ok(answers.every((r) => r.status === 201));
    await waitFor(() => receiver!.received.length >= COUNT, 20_000);
    // Both pollers keep running: give them time to (wrongly) send again.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    assert.equal(new Set(ids).size, COUNT, 'every event delivered');
    assert.equal(ids.length, COUNT, 'none twice');
  });
});
