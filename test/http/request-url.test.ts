import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../src/core/logger';
import { loadConfig } from '../../src/config/config';
import { createApp } from '../../src/http/app';
import { LINGER_MS } from '../../src/http/linger';
import { createMetrics, type ImportdMetrics } from '../../src/http/metrics/registry';
import { startServer, type RunningServer } from '../../src/http/server';
import { createHarness, createTestEnvironment, type Harness, type TestEnvironment } from '../helpers/harness';
import { openSocket } from '../helpers/live-server';

// node-server builds each request's URL from its Host header and target before the app sees it; one it cannot
// build (`new URL` refuses it, or reads another host from it) must still get the API's one error shape.

interface Served {
  server: RunningServer;
  metrics: ImportdMetrics;
  logs: string[];
}

async function serve(h: Harness): Promise<Served> {
  const logs: string[] = [];
  const logger = createLogger('info', (line) => logs.push(line));
  const metrics = createMetrics(h.ctx);
  const deps = { ctx: h.ctx, logger, metrics };
  const server = await startServer(createApp(deps).fetch, { ...h.ctx.config, host: '127.0.0.1', port: 0 }, logger, metrics);
  return { server, metrics, logs };
}

/** The raw answer to a request written as it is on a socket of its own. */
async function rawAnswer(port: number, head: string): Promise<{ status: number; headers: Map<string, string>; body: string }> {
  const socket = await openSocket(port);
  socket.write(`${head}\r\nConnection: close\r\n\r\n`);
  await socket.ended;
  const [top, body = ''] = socket.received().split('\r\n\r\n');
  const [statusLine, ...lines] = top!.split('\r\n');
  const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

const refusedCount = async (served: Served, method: string) => {
  const text = await served.metrics.registry.getSingleMetricAsString('importd_http_request_duration_seconds');
  const line = text.split('\n').find((l) => l.startsWith(`importd_http_request_duration_seconds_count{method="${method}",route="unmatched",status="400"}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
};

describe('a request whose Host header makes no URL: 400 in the error shape, with X-Request-Id, counted and logged', () => {
  let h: Harness;
  let env: TestEnvironment;
  let served: Served;
  before(async () => {
    h = await createHarness();
    env = await createTestEnvironment(h);
    served = await serve(h);
  });
  after(async () => {
    await served.server.close();
    await h.close();
  });

  const hosts = ['localhost:99999', 'a b', '127.1:80', 'example.com/evil'];
  for (const host of hosts) {
    it(`Host: ${host}`, async () => {
      const counted = await refusedCount(served, 'GET');
      const { status, headers, body } = await rawAnswer(served.server.port, `GET /v1/imports?limit=1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${env.secretKey}`);
      assert.equal(status, 400, body);
      assert.equal(headers.get('content-type'), 'application/json');
      assert.equal(headers.get('content-length'), String(Buffer.byteLength(body)));
      assert.equal(headers.get('x-content-type-options'), 'nosniff');
      const requestId = headers.get('x-request-id');
      assert.match(requestId ?? '', /^req_/);
      const { error } = JSON.parse(body);
      assert.deepEqual(error, { code: 'validation_failed', message: error.message, requestId });
      assert.match(error.message, new RegExp(`Host header ${JSON.stringify(JSON.stringify(host)).slice(1, -1)}`));
      assert.equal(await refusedCount(served, 'GET'), counted + 1);
      const logged = served.logs.map((line) => JSON.parse(line)).find((line) => line.requestId === requestId);
      assert.deepEqual([logged?.msg, logged?.method, logged?.path, logged?.status], ['request', 'GET', '/v1/imports', 400]);
    });
  }

  it('closes the connection of a refused request whose body has not all arrived, instead of reading it whole', async () => {
    const socket = await openSocket(served.server.port);
    socket.write(`POST /v1/imports HTTP/1.1\r\nHost: localhost:99999\r\nContent-Type: application/x-ndjson\r\nContent-Length: ${1024 ** 3}\r\n\r\n{}\n`);
    const closed = await Promise.race([socket.ended.then(() => true), new Promise((resolve) => setTimeout(resolve, LINGER_MS + 2_000, false))]);
    socket.destroy();
    const [head = '', body = ''] = socket.received().split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 400 /);
    assert.match(head, /\r\nConnection: close\r\n/i);
    assert.equal(JSON.parse(body).error.code, 'validation_failed');
    assert.ok(closed, 'the connection stays open to read the rest of the body');
  });

  it('keeps serving, a valid Host as before', async () => {
    const { status, body } = await rawAnswer(served.server.port, `GET /v1/imports?limit=1 HTTP/1.1\r\nHost: localhost:${served.server.port}\r\nAuthorization: Bearer ${env.secretKey}`);
    assert.equal(status, 200, body);
  });
});

describe("a fetch that rejects (Hono's does when a handler throws a non-Error)", () => {
  it('is answered 500 internal_error in the error shape, with X-Request-Id, its message logged and not sent', async () => {
    const logs: string[] = [];
    const logger = createLogger('info', (line) => logs.push(line));
    const fetch = () => Promise.reject(new Error('connect ECONNREFUSED db-internal:5432 user=importd'));
    const server = await startServer(fetch, { ...loadConfig({}, {}), host: '127.0.0.1', port: 0 }, logger);
    try {
      const answer = await rawAnswer(server.port, 'GET /v1/imports HTTP/1.1\r\nHost: 127.0.0.1');
      assert.equal(answer.status, 500);
      assert.equal(answer.headers.get('content-type'), 'application/json');
      const body = JSON.parse(answer.body) as { error: { code: string; message: string; requestId: string } };
      assert.equal(body.error.code, 'internal_error');
      assert.equal(answer.headers.get('x-request-id'), body.error.requestId);
      assert.doesNotMatch(answer.body, /ECONNREFUSED|db-internal/);
      assert.ok(logs.some((line) => line.includes(body.error.requestId) && line.includes('ECONNREFUSED')), logs.join('\n'));
    } finally {
      await server.close();
    }
  });
});
