import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, createHarness, createTestEnvironment, createTestSession, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { countRows, createImportOk } from '../imports/helpers';

const FOREIGN = 'https://evil.example.net';
const IMPORT = { meta: { schemaKey: 'contacts' }, rows: [{ email: 'a@b.co' }] };

/** The allowance a browser needs to read an answer: the request's own origin, with Vary: Origin. */
function assertReadable(response: Response, origin: string): void {
  assert.equal(response.headers.get('Access-Control-Allow-Origin'), origin);
  assert.match(response.headers.get('Vary') ?? '', /\bOrigin\b/);
}

describe('answers a browser can read, and what a browser may not do', () => {
  const { h, env } = useHarness({ config: { IMPORTD_MAX_BODY: '2kb', IMPORTD_RATE_LIMIT: '5' } });

  it('lets an allowed origin read 401 answers given before the key is known, never a foreign one', async () => {
    const unknownKey = `pk_${'x'.repeat(40)}`;
    const cases = [
      { what: 'unknown key', options: { key: unknownKey }, code: 'invalid_api_key' },
      { what: 'malformed key', options: { headers: { 'X-Public-Key': 'pk_short' } }, code: 'invalid_api_key' },
      { what: 'no key', options: {}, code: 'missing_credentials' },
    ];
    for (const c of cases) {
      const allowed = await call(h, 'GET', '/v1/themes', { ...c.options, origin: env.origin });
      assert.equal(allowed.status, 401, c.what);
      assert.equal((await json(allowed)).error.code, c.code, c.what);
      assertReadable(allowed, env.origin);
      const foreign = await call(h, 'GET', '/v1/themes', { ...c.options, origin: FOREIGN });
      assert.equal(foreign.status, 401, c.what);
      assert.equal(foreign.headers.get('Access-Control-Allow-Origin'), null, c.what);
    }
  });

  it('lets an allowed origin read a 413 (body over the limit, before any key check)', async () => {
    const rawBody = JSON.stringify({ ...IMPORT, rows: [{ text: 'x'.repeat(4096) }] });
    for (const origin of [env.origin, FOREIGN]) {
      const headers = { 'Content-Length': String(rawBody.length) };
      const response = await call(h, 'POST', '/v1/imports', { key: env.publicKey, origin, rawBody, headers });
      assert.equal(response.status, 413);
      assert.equal(response.headers.get('Access-Control-Allow-Origin'), origin === FOREIGN ? null : origin);
    }
  });

  it('lets an allowed origin read a 429 with its Retry-After', async () => {
    const limited = await createHarness({ config: { IMPORTD_RATE_LIMIT: '1' } });
    try {
      const e = await createTestEnvironment(limited);
      assert.equal((await call(limited, 'GET', '/v1/themes', { key: e.publicKey, origin: e.origin })).status, 404);
      const response = await call(limited, 'GET', '/v1/themes', { key: e.publicKey, origin: e.origin });
      assert.equal(response.status, 429);
      assertReadable(response, e.origin);
      assert.match(response.headers.get('Access-Control-Expose-Headers') ?? '', /Retry-After/);
    } finally {
      limited.close();
    }
  });

  it('lets an allowed origin read a 400 invalid_json sent with meta.publicKey (before the key is known)', async () => {
    const response = await call(h, 'POST', '/v1/imports', { origin: env.origin, rawBody: '{"meta":{"publicKey":' });
    assert.equal(response.status, 400);
    assert.equal((await json(response)).error.code, 'invalid_json');
    assertReadable(response, env.origin);
  });

  it('answers a preflight that asks for tracing headers', async () => {
    const response = await call(h, 'OPTIONS', '/v1/imports', {
      origin: env.origin,
      headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,traceparent,tracestate,baggage,sentry-trace,x-public-key' },
    });
    assert.equal(response.status, 204);
    const allowed = (response.headers.get('Access-Control-Allow-Headers') ?? '').toLowerCase().split(/, */);
    for (const header of ['traceparent', 'tracestate', 'baggage', 'sentry-trace', 'x-public-key', 'x-session-token', 'content-type']) {
      assert.ok(allowed.includes(header), header);
    }
  });

  it('refuses a Secret Key on any request with an Origin (403 secret_key_in_browser), storing and deleting nothing', async () => {
    const kept = await createImportOk(h, env, IMPORT);
    const before = await countRows(h, 'imports');
    for (const origin of [env.origin, FOREIGN, 'null']) {
      const posted = await call(h, 'POST', '/v1/imports', { key: env.secretKey, origin, body: IMPORT });
      assert.equal(posted.status, 403, origin);
      assert.equal((await json(posted)).error.code, 'secret_key_in_browser');
      assert.equal(posted.headers.get('Access-Control-Allow-Origin'), null);
      const deleted = await call(h, 'DELETE', `/v1/imports/${kept.id}`, { key: env.secretKey, origin });
      assert.equal(deleted.status, 403);
      const created = await call(h, 'POST', '/v1/environments', { key: env.secretKey, origin, body: { name: 'shadow', allowedOrigins: [] } });
      assert.equal(created.status, 403);
    }
    assert.equal(await countRows(h, 'imports'), before);
    assert.equal((await call(h, 'GET', `/v1/imports/${kept.id}`, { key: env.secretKey })).status, 200);
    assert.equal((await call(h, 'GET', '/v1/environments', { key: env.secretKey })).status, 200, 'the key still works from a server');
  });
});

describe('protocol details of credentials', () => {
  const { h, env } = useHarness();

  it('accepts the Bearer scheme in any case', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer', 'beArer']) {
      const response = await call(h, 'GET', '/v1/environments', { headers: { Authorization: `${scheme} ${env.secretKey}` } });
      assert.equal(response.status, 200, scheme);
    }
    const basic = await call(h, 'GET', '/v1/environments', { headers: { Authorization: `Basic ${env.secretKey}` } });
    assert.equal(basic.status, 401);
  });

  it('names the Bearer scheme in WWW-Authenticate on every 401', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /^Bearer realm="importd"$/],
      [{ Authorization: `Bearer sk_${'z'.repeat(40)}` }, /^Bearer realm="importd", error="invalid_token"$/],
      [{ Authorization: 'Token abc' }, /error="invalid_token"/],
    ];
    for (const [headers, expected] of cases) {
      const response = await call(h, 'GET', '/v1/environments', { headers });
      assert.equal(response.status, 401);
      assert.match(response.headers.get('WWW-Authenticate') ?? '', expected);
    }
    const session = await call(h, 'GET', '/v1/templates/00000000-0000-7000-8000-000000000000', { key: env.publicKey, origin: env.origin, session: 'nope' });
    assert.equal(session.status, 401);
    assert.match(session.headers.get('WWW-Authenticate') ?? '', /^Bearer /);
    assert.equal((await call(h, 'GET', '/v1/environments', { key: env.secretKey })).headers.get('WWW-Authenticate'), null);
  });

  it('refuses a Secret Key in X-Public-Key and in meta.publicKey', async () => {
    const header = await call(h, 'GET', '/v1/themes', { headers: { 'X-Public-Key': env.secretKey } });
    assert.equal(header.status, 403);
    assert.equal((await json(header)).error.code, 'wrong_key_kind');
    const token = (await createTestSession(h, env)).sessionToken;
    const body = await call(h, 'POST', '/v1/imports', {
      origin: env.origin,
      body: { ...IMPORT, meta: { ...IMPORT.meta, publicKey: env.secretKey, sessionToken: token } },
    });
    assert.equal(body.status, 403);
    assert.equal((await json(body)).error.code, 'wrong_key_kind');
    assert.equal(await countRows(h, 'imports'), 0);
  });
});
