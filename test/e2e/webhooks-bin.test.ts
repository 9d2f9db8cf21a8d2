import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { call, createHarness, createTestEnvironment, json, type Harness, type TestEnvironment } from '../helpers/harness';
import { waitFor } from '../helpers/live-server';
import { runBin, startServe, type ServerProcess } from '../helpers/process';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';

// `importd webhooks ...` on the real binary, and delivery by the sender running inside a real `importd serve`.
describe('importd webhooks add|list|deliveries|redeliver|remove, delivered by serve', () => {
  let h: Harness;
  let env: TestEnvironment;
  let receiver: Receiver;
  let server: ServerProcess | undefined;
  const ALLOW = { IMPORTD_WEBHOOK_ALLOW_PRIVATE: 'true' };
  const bin = (args: string[], extra: Record<string, string> = ALLOW) => runBin([...args, '--db', h.dbPath], extra);
  const binJson = (args: string[]) => {
    const result = bin([...args, '--json']);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout);
  };
  let hook: { id: string; secret: string };
  before(async () => {
    h = await createHarness();
    env = await createTestEnvironment(h);
    receiver = await startReceiver();
  });
  after(async () => {
    await server?.stop();
    await receiver.close();
    await h.close();
  });

  it('adds an endpoint and prints its secret once', () => {
    hook = binJson(['webhooks', 'add', receiver.url(), '--env', 'production', '--event', 'import.completed', '--description', 'ops']);
    assert.match(hook.secret, /^whsec_/);
    assert.deepEqual((hook as unknown as { events: string[] }).events, ['import.completed']);
    const text = bin(['webhooks', 'add', receiver.url('/second'), '--env', 'production']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /secret: whsec_/);
  });

  it('refuses bad input with the API error codes', () => {
    const cases: [string[], Record<string, string>, number, RegExp][] = [
      [['webhooks', 'add', receiver.url(), '--env', 'production', '--event', 'import.created'], ALLOW, 2, /validation_failed/],
      [['webhooks', 'add', receiver.url(), '--env', 'nowhere'], ALLOW, 3, /not_found/],
      [['webhooks', 'add', receiver.url(), '--env', 'production'], {}, 2, /url: must use https/],
      [['webhooks', 'add', 'https://[::1]/x', '--env', 'production'], {}, 2, /non-public address/],
      [['webhooks', 'remove', '0190e4a0-0000-7000-8000-000000000000'], ALLOW, 3, /not_found/],
      [['webhooks', 'deliveries', '0190e4a0-0000-7000-8000-000000000000'], ALLOW, 3, /not_found/],
      [['webhooks', 'redeliver', 'evt_nothing'], ALLOW, 3, /not_found/],
    ];
    for (const [args, extra, code, message] of cases) {
      const result = bin(args, extra);
      assert.equal(result.code, code, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message);
    }
  });

  it('lists what GET /v1/webhooks answers (never the secrets)', async () => {
    const cli = binJson(['webhooks', 'list', '--env', 'production']);
    const api = await json(await call(h, 'GET', '/v1/webhooks', { key: env.secretKey }));
    assert.deepEqual(cli.data, api.data);
    assert.equal(cli.data.length, 2);
    assert.equal(JSON.stringify(cli).includes('whsec_'), false);
  });

  it('serve delivers an import.completed in the background, signed; deliveries and redeliver work on it', async () => {
    server = await startServe(h.dbPath, ALLOW);
    const response = await fetch(`${server.url}/v1/imports`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ meta: { schemaKey: 'contacts' }, rows: [{ name: 'Ada' }] }),
    });
    assert.equal(response.status, 201);
    const created = (await response.json()) as { id: string };
    await waitFor(() => receiver.received.filter((r) => r.path === '/hook').length === 1);
    const request = receiver.received.find((r) => r.path === '/hook')!;
    const event = new Webhook(hook.secret).verify(request.body, request.headers as Record<string, string>) as { data: { id: string } };
    assert.equal(event.data.id, created.id);
    await waitFor(() => bin(['webhooks', 'deliveries', hook.id, '--json']).stdout.includes('"delivered"'));
    const [log] = binJson(['webhooks', 'deliveries', hook.id]).data;
    assert.equal(log.status, 'delivered');
    assert.equal(log.eventId, request.headers['webhook-id']);
    assert.match(bin(['webhooks', 'deliveries', hook.id]).stdout, /EVENT\s+TYPE\s+STATUS[^\n]*\n\S+\s+import\.completed\s+delivered\s+1/);
    assert.deepEqual(binJson(['webhooks', 'redeliver', log.eventId]), { eventId: log.eventId, deliveries: 2 });
    // Another process wrote it: serve's poll (1 s) finds it.
    await waitFor(() => receiver.received.filter((r) => r.path === '/hook').length === 2);
    assert.equal(receiver.received.filter((r) => r.path === '/hook')[1]!.headers['webhook-id'], log.eventId);
    assert.match(server.output(), /webhook delivered/);
    assert.ok(!server.output().includes(hook.secret.slice(6)), 'the secret is never logged');
  });

  it('removes an endpoint', async () => {
    const removed = bin(['webhooks', 'remove', hook.id]);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(bin(['webhooks', 'remove', hook.id]).code, 3);
    assert.equal(binJson(['webhooks', 'list']).data.length, 1);
  });
});
