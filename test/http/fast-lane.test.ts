import assert from 'node:assert/strict';
import { Agent, request as httpRequest, type RequestListener } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../src/core/logger';
import { createApp } from '../../src/http/app';
import { withFastLane } from '../../src/http/fast-lane';
import { createMetrics, type ImportdMetrics } from '../../src/http/metrics/registry';
import { startServer, type RunningServer } from '../../src/http/server';
import { createEnvironment, rollEnvironmentKey } from '../../src/services/environments';
import { createHarness, createTestEnvironment, testClock, type Harness, type TestEnvironment } from '../helpers/harness';
import { contactRows, createImportOk } from '../imports/helpers';

// The fast lane answers GET /v1/imports/{id}, its rows page and the plain list before Hono. Two real servers on one database,
// one with the lane and one without, get the same requests (each with keys of its own environment, so rate
// limits count apart): every answer must be the same, byte for byte, but for the date and the request id;
// the lane must have answered the successes itself and handed everything else to Hono; metrics and the
// request log must see the same requests.

const RATE_LIMIT = 80;

interface Served {
  server: RunningServer;
  url: string;
  metrics: ImportdMetrics;
  logs: string[];
  /** Requests that reached the Hono app. */
  honoRequests: string[];
}

async function serve(h: Harness, lane: boolean): Promise<Served> {
  const logs: string[] = [];
  const logger = createLogger('info', (line) => logs.push(line));
  const metrics = createMetrics(h.ctx);
  const deps = { ctx: h.ctx, logger, metrics };
  const honoRequests: string[] = [];
  const counted = (app: RequestListener): RequestListener => (incoming, outgoing) => {
    honoRequests.push(`${incoming.method} ${incoming.url}`);
    return app(incoming, outgoing);
  };
  const wrap = lane ? (app: RequestListener) => withFastLane(deps, counted(app)) : counted;
  const server = await startServer(createApp(deps).fetch, { ...h.ctx.config, host: '127.0.0.1', port: 0 }, logger, wrap);
  return { server, url: `http://127.0.0.1:${server.port}`, metrics, logs, honoRequests };
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function send(served: Served, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(`${served.url}${path}`, { method, headers });
  const body = await response.text();
  const kept: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'date' && name !== 'x-request-id') kept[name] = value;
  });
  return { status: response.status, headers: kept, body: body.replace(/"requestId":"req_[A-Za-z0-9_-]+"/, '"requestId":"req_"') };
}

describe('fast lane: the same answers as the Hono routes', () => {
  let h: Harness;
  let on: Served;
  let off: Served;
  let envOn: TestEnvironment;
  let envOff: TestEnvironment;
  let importId: string;
  let otherImportId: string;
  let revokedOn: string;
  let revokedOff: string;
  let otherSecret: (env: TestEnvironment) => Record<string, string>;

  before(async () => {
    // A clock that stands still: both servers count into the same rate-limit window.
    h = await createHarness({ clock: testClock(), config: { IMPORTD_RATE_LIMIT: String(RATE_LIMIT) } });
    envOn = await createTestEnvironment(h, { name: 'lane-on' });
    envOff = await createTestEnvironment(h, { name: 'lane-off' });
    const writer = await createTestEnvironment(h, { name: 'writer' });
    importId = (await createImportOk(h, writer, { rows: contactRows(250) })).id;
    // More imports of the account than a small list page holds.
    for (let i = 0; i < 4; i++) await createImportOk(h, writer, { rows: contactRows(2) });
    const other = await createTestEnvironment(h, { account: 'other' });
    otherImportId = (await createImportOk(h, other, { rows: contactRows(3) })).id;
    await createImportOk(h, other, { rows: contactRows(1) });
    // Keys of their own on each server: rate limits count apart.
    const otherOn = (await createEnvironment(h.ctx, other.accountId, { name: 'other-on', allowedOrigins: [] })).secretKey.key;
    const otherOff = (await createEnvironment(h.ctx, other.accountId, { name: 'other-off', allowedOrigins: [] })).secretKey.key;
    otherSecret = (env) => ({ Authorization: `Bearer ${env === envOn ? otherOn : otherOff}` });
    const revoked = async (env: TestEnvironment) => {
      const scope = { accountId: env.accountId };
      const first = await createTestEnvironment(h, { name: `${env.name}-revoked` });
      await rollEnvironmentKey(h.ctx, scope, first.name, { kind: 'secret' });
      return first.secretKey;
    };
    revokedOn = await revoked(envOn);
    revokedOff = await revoked(envOff);
    on = await serve(h, true);
    off = await serve(h, false);
  });
  after(async () => {
    await on?.server.close();
    await off?.server.close();
    await h?.close();
  });

  /** Sends one request to both servers (each with its own environment's keys) and compares the answers. */
  async function both(method: string, path: (env: TestEnvironment) => string, headers: (env: TestEnvironment, revoked: string) => Record<string, string>) {
    const fromOn = await send(on, method, path(envOn), headers(envOn, revokedOn));
    const fromOff = await send(off, method, path(envOff), headers(envOff, revokedOff));
    assert.deepEqual(fromOn, fromOff, `${method} ${path(envOn)}`);
    return fromOn;
  }
  const secret = (env: TestEnvironment) => ({ Authorization: `Bearer ${env.secretKey}` });

  it('answers the successes itself, the same bytes as Hono', async () => {
    const before = on.honoRequests.length;
    const detail = await both('GET', () => `/v1/imports/${importId}`, secret);
    assert.equal(detail.status, 200);
    assert.equal(JSON.parse(detail.body).id, importId);
    const first = await both('GET', () => `/v1/imports/${importId}/rows?limit=100`, secret);
    assert.equal(first.status, 200);
    const { nextCursor } = JSON.parse(first.body).pagination.paging;
    assert.ok(nextCursor);
    const successes = [
      `/v1/imports/${importId}/rows`,
      `/v1/imports/${importId}/rows?limit=2&cursor=${nextCursor}`,
      `/v1/imports/${importId}/rows?cursor=${nextCursor}&limit=100`,
      `/v1/imports/${importId}/rows?sortBy=rowIndex&direction=desc&limit=3`,
    ];
    for (const path of successes) assert.equal((await both('GET', () => path, secret)).status, 200, path);
    const list = await both('GET', () => '/v1/imports?limit=2', secret);
    assert.equal(list.status, 200);
    const listPage = JSON.parse(list.body);
    assert.equal(listPage.data.length, 2);
    assert.equal(listPage.pagination.paging.total, 5);
    let listCursor = listPage.pagination.paging.nextCursor;
    const listed = listPage.data.map((item: { id: string }) => item.id);
    while (listCursor) {
      const next = await both('GET', () => `/v1/imports?cursor=${listCursor}&limit=2`, secret);
      assert.equal(next.status, 200);
      const page = JSON.parse(next.body);
      listed.push(...page.data.map((item: { id: string }) => item.id));
      listCursor = page.pagination.paging.nextCursor;
    }
    assert.equal(new Set(listed).size, 5, 'the walk lists each import once');
    assert.ok(listed.includes(importId));
    for (const path of ['/v1/imports', '/v1/imports?limit=100', '/v1/imports?limit=0', `/v1/imports?limit=1&cursor=${listPage.pagination.paging.nextCursor}`]) {
      assert.equal((await both('GET', () => path, secret)).status, 200, path);
    }
    // Each answer carries the rate-limit state, counted once per request.
    assert.equal(detail.headers['ratelimit-remaining'], String(RATE_LIMIT - 1));
    assert.equal(on.honoRequests.length, before, 'no success went through Hono');
  });

  it('hands every other request to Hono, which answers as without the lane', async () => {
    // Cursors another list made: of a rows page, of another sort, of another account's list.
    const nextOf = async (path: string, headers: (env: TestEnvironment) => Record<string, string>) => {
      const cursor: string | null = JSON.parse((await both('GET', () => path, headers)).body).pagination.paging.nextCursor;
      assert.ok(cursor, path);
      return cursor;
    };
    const rowsCursor = await nextOf(`/v1/imports/${importId}/rows?limit=1`, secret);
    const updatedCursor = await nextOf('/v1/imports?limit=1&orderBy=updatedAt', secret);
    const otherAccountCursor = await nextOf('/v1/imports?limit=1', otherSecret);
    const cases: [string, (env: TestEnvironment) => string, (env: TestEnvironment, revoked: string) => Record<string, string>, number][] = [
      ['GET', () => `/v1/imports/${importId}`, () => ({}), 401],
      ['GET', () => `/v1/imports/${importId}`, () => ({ Authorization: 'Bearer sk_unknown00000000000000000000000000' }), 401],
      ['GET', () => `/v1/imports/${importId}`, () => ({ Authorization: 'Basic abc' }), 401],
      ['GET', () => `/v1/imports/${importId}/rows`, (_, revoked) => ({ Authorization: `Bearer ${revoked}` }), 401],
      ['GET', () => `/v1/imports/${importId}`, (env) => ({ Authorization: `Bearer ${env.publicKey}`, Origin: env.origin }), 403],
      ['GET', () => `/v1/imports/${importId}`, (env) => ({ 'X-Public-Key': env.publicKey, Origin: env.origin }), 403],
      ['GET', () => `/v1/imports/${importId}`, (env) => ({ ...secret(env), 'x-public-key': env.publicKey }), 200],
      ['GET', () => `/v1/imports/${importId}/rows`, (env) => ({ ...secret(env), 'X-PUBLIC-KEY': env.publicKey }), 200],
      ['GET', () => `/v1/imports/${importId}`, (env) => ({ ...secret(env), Origin: 'https://app.example.com' }), 403],
      ['GET', () => `/v1/imports/${otherImportId}`, secret, 404],
      ['GET', () => `/v1/imports/${otherImportId}/rows`, secret, 404],
      ['GET', () => '/v1/imports/00000000-0000-7000-8000-000000000000', secret, 404],
      ['GET', () => `/v1/imports/${'x'.repeat(101)}`, secret, 400],
      ['GET', () => `/v1/imports/${'x'.repeat(101)}/rows`, secret, 400],
      ['GET', () => '/v1/imports/a%20b', secret, 404],
      ['GET', () => `/v1/imports/${importId}/`, secret, 404],
      ['GET', () => `/v1/imports/${importId}?x=1`, secret, 200],
      ['GET', () => `/v1/imports/${importId}/rows?cursor=abc`, secret, 400],
      ['GET', () => `/v1/imports/${importId}/rows?limit=0`, secret, 400],
      ['GET', () => `/v1/imports/${importId}/rows?limit=101`, secret, 400],
      ['GET', () => `/v1/imports/${importId}/rows?limit=ten`, secret, 400],
      ['GET', () => `/v1/imports/${importId}/rows?limit=1&limit=2`, secret, 200],
      ['GET', () => `/v1/imports/${importId}/rows?limit=%32`, secret, 200],
      ['GET', () => `/v1/imports/${importId}/rows?sortBy=name`, secret, 400],
      ['GET', () => `/v1/imports/${importId}/rows?other=1`, secret, 200],
      ['HEAD', () => `/v1/imports/${importId}`, secret, 200],
      ['GET', () => `/v1/imports/${importId}`, (env) => ({ ...secret(env), 'If-None-Match': '"x"' }), 200],
      ['POST', () => `/v1/imports/${importId}`, secret, 405],
      ['GET', () => '/v1/imports', () => ({}), 401],
      ['GET', () => '/v1/imports?limit=1', (_, revoked) => ({ Authorization: `Bearer ${revoked}` }), 401],
      ['GET', () => '/v1/imports', (env) => ({ Authorization: `Bearer ${env.publicKey}`, Origin: env.origin }), 403],
      ['GET', () => '/v1/imports', (env) => ({ ...secret(env), Origin: 'https://app.example.com' }), 403],
      ['GET', () => '/v1/imports?cursor=abc', secret, 400],
      ['GET', () => `/v1/imports?cursor=${rowsCursor}`, secret, 400],
      ['GET', () => `/v1/imports?cursor=${updatedCursor}`, secret, 400],
      ['GET', () => `/v1/imports?cursor=${otherAccountCursor}`, secret, 400],
      ['GET', () => '/v1/imports?limit=101', secret, 400],
      ['GET', () => '/v1/imports?limit=-1', secret, 400],
      ['GET', () => '/v1/imports?limit=', secret, 400],
      ['GET', () => '/v1/imports?limit=1&limit=2', secret, 400],
      ['GET', () => '/v1/imports?orderBy=updatedAt', secret, 200],
      ['GET', () => '/v1/imports?direction=asc&limit=2', secret, 200],
      ['GET', () => '/v1/imports?environment=writer', secret, 200],
      ['GET', () => '/v1/imports?userEmail=a%40b', secret, 200],
      ['GET', () => '/v1/imports/', secret, 404],
      ['HEAD', () => '/v1/imports', secret, 200],
      ['GET', () => '/v1/imports', (env) => ({ ...secret(env), 'If-None-Match': '"x"' }), 200],
    ];
    for (const [method, path, headers, status] of cases) {
      const before = on.honoRequests.length;
      const answer = await both(method, path, headers);
      assert.equal(answer.status, status, `${method} ${path(envOn)}: ${answer.body}`);
      assert.equal(on.honoRequests.length, before + 1, `${method} ${path(envOn)} went through Hono`);
    }
  });

  it('metrics and the request log see the same requests', () => {
    const counts = async (served: Served) =>
      (await served.metrics.registry.getSingleMetricAsString('importd_http_request_duration_seconds'))
        .split('\n')
        .filter((line) => line.startsWith('importd_http_request_duration_seconds_count'));
    const requests = (served: Served) =>
      served.logs
        .map((line) => JSON.parse(line))
        .filter((line) => line.msg === 'request')
        .map((line) => `${line.method} ${line.path} ${line.status}`);
    return (async () => {
      const fromOn = await counts(on);
      assert.deepEqual(fromOn, await counts(off));
      assert.ok(fromOn.some((line) => line.includes('route="/v1/imports/:importId"') && line.includes('status="200"')));
      assert.ok(fromOn.some((line) => line.includes('route="/v1/imports/:importId/rows"') && line.includes('status="200"')));
      assert.ok(fromOn.some((line) => line.includes('route="/v1/imports"') && line.includes('status="200"')));
      assert.ok(fromOn.some((line) => line.includes('route="/v1/imports"') && line.includes('status="400"')));
      assert.deepEqual(requests(on), requests(off));
      assert.ok(requests(on).length > 30, `${requests(on).length} request lines`);
    })();
  });

  it('past the rate limit: the same 429 from the lane as from Hono, counted the same', async () => {
    let last: Answer | undefined;
    for (let i = 0; i < RATE_LIMIT; i++) last = await both('GET', () => `/v1/imports/${importId}`, secret);
    assert.equal(last?.status, 429);
    assert.equal(last?.headers['ratelimit-remaining'], '0');
    assert.ok(last?.headers['retry-after']);
    assert.equal(JSON.parse(last!.body).error.code, 'rate_limited');
    const limited = async (served: Served) => (await served.metrics.registry.getSingleMetricAsString('importd_rate_limited_requests_total')).split('\n').at(-1);
    assert.deepEqual(await limited(on), await limited(off));
    // Refused once, the key's next requests are refused before anything is read: the lane hands them to Hono.
    const imports = h.ctx.store.imports;
    const findViewWithKey = imports.findViewWithKey;
    let reads = 0;
    imports.findViewWithKey = (...args) => (reads++, findViewWithKey(...args));
    try {
      for (const path of [`/v1/imports/${importId}`, `/v1/imports/${importId}/rows?limit=100`]) {
        const answer = await both('GET', () => path, secret);
        assert.equal(answer.status, 429);
      }
      assert.equal(reads, 0);
    } finally {
      imports.findViewWithKey = findViewWithKey;
    }
  });

  it('a malformed Secret Key while some key is past its limit: the same 401 from the lane as from Hono', async () => {
    // This environment's key is past its rate limit by now, so the lane holds a key it refused.
    for (const key of ['sk_short', `sk_${'a'.repeat(129)}`]) {
      const answer = await both('GET', () => `/v1/imports/${importId}`, () => ({ Authorization: `Bearer ${key}` }));
      assert.equal(answer.status, 401, key);
      assert.equal(JSON.parse(answer.body).error.code, 'invalid_api_key');
    }
  });

  it('hands a Host the Hono path would refuse or rewrite to it: the same 400', async () => {
    const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    const status = (served: Served, host: string, env: TestEnvironment) =>
      new Promise<number>((resolve, reject) => {
        // The other account's keys: this environment's are past their rate limit by now.
        const request = httpRequest(`${served.url}/v1/imports?limit=1`, { headers: { host, ...lower(otherSecret(env)) } }, (response) => {
          response.resume();
          resolve(response.statusCode!);
        });
        request.on('error', reject);
        request.end();
      });
    for (const host of ['localhost:99999', 'localhost:65536', '127.1:80', '0x7f.1:443']) {
      const handed = on.honoRequests.length;
      assert.equal(await status(on, host, envOn), await status(off, host, envOff), host);
      assert.equal(on.honoRequests.length, handed + 1, host);
    }
  });

  it('one keep-alive connection presenting different keys in turn: each request is answered for its own key', async () => {
    // The lane remembers a connection's last key with its hash; a backend may still send another on it.
    const fresh = (await createTestEnvironment(h, { name: 'one-connection' })).secretKey;
    const rolled = await createTestEnvironment(h, { name: 'one-connection-rolled' });
    await rollEnvironmentKey(h.ctx, { accountId: rolled.accountId }, rolled.name, { kind: 'secret' });
    const other = (await createTestEnvironment(h, { account: 'one-connection-other' })).secretKey;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const get = (key: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest(`${on.url}/v1/imports/${importId}`, { agent, headers: { authorization: `Bearer ${key}` } }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode!));
        });
        request.on('socket', (socket) => sockets.add(socket));
        request.on('error', reject);
        request.end();
      });
    try {
      const handed = on.honoRequests.length;
      assert.equal(await get(fresh), 200);
      assert.equal(await get(other), 404, "another account's key does not read this import");
      assert.equal(await get(rolled.secretKey), 401, 'a rolled key is refused');
      assert.equal(await get('sk_short'), 401);
      assert.equal(await get(fresh), 200);
      assert.equal(sockets.size, 1, 'every request went over one connection');
      assert.equal(on.honoRequests.length, handed + 3, 'the lane answered the two successes');
    } finally {
      agent.destroy();
    }
  });
});
