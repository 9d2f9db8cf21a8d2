import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { requireCredential } from '../../src/http/credentials';
import { TUS_EXPOSED } from '../../src/http/routes/uploads';
import { call, createHarness, createTestEnvironment, createTestSession, type Harness, type TestEnvironment } from '../helpers/harness';
import { fillPath, listRoutes, type RouteInfo } from '../helpers/routes';

const FOREIGN = 'https://evil.example.net';

/** Asserts the CORS answer: never `*`, only the request's own origin when that origin is allowed. */
function assertCors(response: Response, requestOrigin: string, allowed: boolean, what: string): void {
  const acao = response.headers.get('Access-Control-Allow-Origin');
  assert.notEqual(acao, '*', `${what}: Access-Control-Allow-Origin is *`);
  assert.notEqual(response.headers.get('Access-Control-Allow-Credentials'), 'true', `${what}: credentials allowed`);
  if (!allowed) return assert.equal(acao, null, `${what}: allowed foreign origin ${requestOrigin}`);
  if (acao === null) return assert.equal(response.headers.get('Access-Control-Expose-Headers'), null, `${what}: headers exposed with no allowance`);
  assert.equal(acao, requestOrigin, what);
  assert.equal(response.headers.get('Vary'), 'Origin', `${what}: Vary`);
  const exposed = 'X-Request-Id, ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';
  // Answers of the upload routes themselves add tus' headers (offset, address); a refusal before them does not.
  const expected = what.includes(' /v1/uploads') ? [exposed, `${exposed}, ${TUS_EXPOSED}`] : [exposed];
  assert.ok(expected.includes(response.headers.get('Access-Control-Expose-Headers') ?? ''), what);
}

describe('CORS and security headers', () => {
  let h: Harness;
  let env: TestEnvironment;
  let routes: RouteInfo[];
  before(async () => {
    h = await createHarness();
    env = await createTestEnvironment(h, { origins: ['https://app.example.com', 'https://*.customer.io'] });
    // Routes that take the Public Key come with other resources; this probe makes the positive CORS case
    // testable on every branch, through the real credential and app middleware (added before the first
    // request: the router is frozen after it).
    h.app.get('/v1/probe/public', requireCredential(h.ctx, 'secret-or-public'), (c) => c.json({ ok: true }));
    routes = (await listRoutes(h)).filter((route) => !route.path.startsWith('/v1/probe'));
  });
  after(() => h.close());

  it('echoes an allowed origin (exact or wildcard) to a Public Key request, with Vary: Origin', async () => {
    for (const origin of ['https://app.example.com', 'https://a.b.customer.io']) {
      const response = await call(h, 'GET', '/v1/probe/public', { key: env.publicKey, origin });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('Access-Control-Allow-Origin'), origin);
      assertCors(response, origin, true, origin);
    }
  });

  it('refuses a Public Key request from a foreign origin, with no CORS allowance', async () => {
    for (const origin of [FOREIGN, 'https://customer.io', 'https://app.example.com.evil.net', 'null', 'http://app.example.com']) {
      const response = await call(h, 'GET', '/v1/probe/public', { key: env.publicKey, origin });
      assert.equal(response.status, 403, origin);
      assertCors(response, origin, false, origin);
    }
  });

  it('answers preflights only for allowed origins, never with *', async () => {
    const allowed = await call(h, 'OPTIONS', '/v1/probe/public', { origin: 'https://x.customer.io', headers: { 'Access-Control-Request-Method': 'GET' } });
    assert.equal(allowed.status, 204);
    assertCors(allowed, 'https://x.customer.io', true, 'preflight');
    assert.equal(allowed.headers.get('Access-Control-Allow-Origin'), 'https://x.customer.io');
    for (const origin of [FOREIGN, '*', '']) {
      const response = await call(h, 'OPTIONS', '/v1/environments', { origin, headers: { 'Access-Control-Request-Method': 'POST' } });
      assert.equal(response.status, 403, `preflight from ${origin || '(none)'}`);
      assertCors(response, origin, false, `preflight from ${origin}`);
      assert.match(response.headers.get('Vary') ?? '', /\bOrigin\b/);
    }
  });

  it('sends no CORS allowance on Secret Key requests, even from an allowed origin, on every route', async () => {
    for (const route of routes) {
      const response = await call(h, route.method, fillPath(route, () => 'x'), { key: env.secretKey, origin: env.origin });
      assert.equal(response.headers.get('Access-Control-Allow-Origin'), null, `${route.method} ${route.path}`);
    }
  });

  it('never answers * on any route, with any credential and origin', async () => {
    const token = (await createTestSession(h, env)).sessionToken;
    for (const route of [...routes, { method: 'GET', path: '/v1/probe/public' } as RouteInfo]) {
      for (const origin of [env.origin, FOREIGN]) {
        for (const options of [{ key: env.publicKey }, { key: env.publicKey, session: token }, { key: env.secretKey }, {}]) {
          const response = await call(h, route.method, fillPath(route, () => 'x'), { ...options, origin });
          assertCors(response, origin, origin === env.origin, `${route.method} ${route.path}`);
        }
      }
    }
  });

  it('sends X-Content-Type-Options: nosniff and Cache-Control: no-store on every answer, errors included', async () => {
    const session = await call(h, 'POST', '/v1/sessions', { key: env.secretKey, body: { endUserId: 'u-1' } });
    assert.equal(session.status, 201);
    const created = await call(h, 'POST', '/v1/environments', { key: env.secretKey, body: { name: 'keys', allowedOrigins: [] } });
    assert.equal(created.status, 201);
    const answers = [session, created, await call(h, 'GET', '/v1/nowhere'), await call(h, 'DELETE', '/healthz')];
    // The browser importer script is the one answer meant to be cached (test/http/embed-script.test.ts).
    for (const route of routes.filter((route) => route.path !== '/embed/importer.js')) answers.push(await call(h, route.method, fillPath(route, () => 'x'), { key: env.secretKey }));
    for (const response of answers) {
      assert.equal(response.headers.get('X-Content-Type-Options'), 'nosniff', response.url);
      assert.equal(response.headers.get('Cache-Control'), 'no-store', response.url);
      assert.match(response.headers.get('X-Request-Id') ?? '', /^req_/);
    }
  });
});
