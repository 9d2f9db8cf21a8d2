import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authFailureSuite } from '../helpers/auth-suite';
import { call, createTestEnvironment, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

const { h, env, other } = useHarness({ environments: { other: { account: 'other-account', name: 'production' } } });

const origins = (n: number) => Array.from({ length: n }, (_, i) => `https://app${i}.example.com`);

describe('POST /v1/environments', () => {
  it('creates an environment and returns both key values once', async () => {
    const response = await call(h, 'POST', '/v1/environments', {
      key: env.secretKey,
      body: { name: 'staging', allowedOrigins: ['https://App.Example.com', 'https://*.example.com', 'http://localhost:3000'] },
    });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('Cache-Control'), 'no-store');
    const body = await json(response);
    assert.deepEqual(Object.keys(body).sort(), ['autoCreateTemplates', 'name', 'publicKey', 'secretKey']);
    assert.deepEqual(Object.keys(body.secretKey).sort(), ['active', 'createdAt', 'id', 'key', 'prefix']);
    assert.deepEqual(Object.keys(body.publicKey).sort(), ['active', 'allowedOrigins', 'createdAt', 'id', 'key', 'prefix']);
    assert.match(body.secretKey.key, /^sk_[0-9A-Za-z]{32,}$/);
    assert.match(body.publicKey.key, /^pk_[0-9A-Za-z]{32,}$/);
    assert.equal(body.secretKey.prefix, body.secretKey.key.slice(0, 12));
    assert.deepEqual(body.publicKey.allowedOrigins, ['https://app.example.com', 'https://*.example.com', 'http://localhost:3000']);

    const stored = await h.sql('SELECT * FROM api_keys');
    const serialized = JSON.stringify(stored);
    assert.ok(!serialized.includes(body.secretKey.key), 'the plaintext secret key is not stored');
    assert.ok(!serialized.includes(body.publicKey.key), 'the plaintext public key is not stored');

    const list = await json(await call(h, 'GET', '/v1/environments', { key: env.secretKey }));
    const text = JSON.stringify(list);
    assert.ok(!text.includes(body.secretKey.key) && !text.includes(body.publicKey.key), 'key values never returned again');
    assert.ok(list.data.some((e: { name: string }) => e.name === 'staging'));

    const created = await call(h, 'GET', '/v1/environments', { key: body.secretKey.key });
    assert.equal(created.status, 200, 'the new secret key works');
  });

  it('answers 409 conflict for a name taken in the account, but allows it in another account', async () => {
    const response = await call(h, 'POST', '/v1/environments', { key: env.secretKey, body: { name: 'production', allowedOrigins: [] } });
    assert.equal(response.status, 409);
    assert.equal((await json(response)).error.code, 'conflict');
    const elsewhere = await call(h, 'POST', '/v1/environments', { key: other.secretKey, body: { name: 'dup-check', allowedOrigins: [] } });
    assert.equal(elsewhere.status, 201);
    const same = await call(h, 'POST', '/v1/environments', { key: env.secretKey, body: { name: 'dup-check', allowedOrigins: [] } });
    assert.equal(same.status, 201);
  });

  const accepted: [string, unknown][] = [
    ['a 1-character name', { name: 'a', allowedOrigins: [] }],
    ['a 50-character name', { name: 'n'.repeat(50), allowedOrigins: [] }],
    ['50 origins', { name: 'fifty', allowedOrigins: origins(50) }],
  ];
  for (const [label, body] of accepted) {
    it(`accepts ${label}`, async () => {
      const response = await call(h, 'POST', '/v1/environments', { key: env.secretKey, body });
      assert.equal(response.status, 201, JSON.stringify(await response.clone().json()));
    });
  }

  const rejected: [string, unknown, string][] = [
    ['an empty name', { name: '', allowedOrigins: [] }, 'name'],
    ['a 51-character name', { name: 'n'.repeat(51), allowedOrigins: [] }, 'name'],
    ['a name with a slash', { name: 'a/b', allowedOrigins: [] }, 'name'],
    ['a name with a control character', { name: 'a\u0001', allowedOrigins: [] }, 'name'],
    ['a non-string name', { name: 42, allowedOrigins: [] }, 'name'],
    ['a missing name', { allowedOrigins: [] }, 'name'],
    ['missing allowedOrigins', { name: 'x1' }, 'allowedOrigins'],
    ['51 origins', { name: 'x2', allowedOrigins: origins(51) }, 'allowedOrigins'],
    ['allowedOrigins not an array', { name: 'x3', allowedOrigins: 'https://a.example.com' }, 'allowedOrigins'],
    ['a non-string origin', { name: 'x4', allowedOrigins: [5] }, 'allowedOrigins.0'],
    ['an origin with a path', { name: 'x5', allowedOrigins: ['https://a.example.com', 'https://b.example.com/app'] }, 'allowedOrigins.1'],
    ['an http origin', { name: 'x6', allowedOrigins: ['http://a.example.com'] }, 'allowedOrigins.0'],
    ['a bare wildcard', { name: 'x7', allowedOrigins: ['*'] }, 'allowedOrigins.0'],
    ['a wildcard TLD', { name: 'x8', allowedOrigins: ['https://*.com'] }, 'allowedOrigins.0'],
    ['localhost without a port', { name: 'x9', allowedOrigins: ['http://localhost'] }, 'allowedOrigins.0'],
    ['a trailing slash', { name: 'x10', allowedOrigins: ['https://a.example.com/'] }, 'allowedOrigins.0'],
  ];
  for (const [label, body, path] of rejected) {
    it(`rejects ${label} with 400 validation_failed at ${path}`, async () => {
      const response = await call(h, 'POST', '/v1/environments', { key: env.secretKey, body });
      assert.equal(response.status, 400);
      const error = (await json(response)).error;
      assert.equal(error.code, 'validation_failed');
      assert.ok(error.details.some((d: { path: string }) => d.path === path), JSON.stringify(error.details));
    });
  }
});

describe('PATCH /v1/environments/{name}/origins', () => {
  it('replaces the origins and answers the environment without key values', async () => {
    const response = await call(h, 'PATCH', '/v1/environments/production/origins', {
      key: env.secretKey,
      body: { allowedOrigins: ['https://app.example.com', 'https://shop.example.org'] },
    });
    assert.equal(response.status, 200);
    const body = await json(response);
    assert.deepEqual(Object.keys(body).sort(), ['autoCreateTemplates', 'createdAt', 'lastUsedAt', 'name', 'publicKey', 'secretKey']);
    assert.deepEqual(Object.keys(body.publicKey).sort(), ['active', 'allowedOrigins', 'createdAt', 'id', 'lastUsedAt', 'prefix']);
    assert.deepEqual(body.publicKey.allowedOrigins, ['https://app.example.com', 'https://shop.example.org']);
    assert.ok(!JSON.stringify(body).includes(env.secretKey));
    assert.ok(body.secretKey.lastUsedAt, 'the secret key has been used');
  });

  it('rejects requests from an origin removed from the list', async () => {
    await call(h, 'PATCH', '/v1/environments/production/origins', { key: env.secretKey, body: { allowedOrigins: [] } });
    const blocked = await call(h, 'GET', '/v1/openapi.json', {});
    assert.equal(blocked.status, 200);
    const preflight = await h.app.request('/v1/environments', { method: 'OPTIONS', headers: { Origin: 'https://shop.example.org' } });
    assert.equal(preflight.status, 403);
    await call(h, 'PATCH', '/v1/environments/production/origins', { key: env.secretKey, body: { allowedOrigins: ['https://app.example.com'] } });
  });

  it('answers 404 for an unknown environment and for another account’s environment', async () => {
    for (const name of ['nope', 'dup-check-missing']) {
      const response = await call(h, 'PATCH', `/v1/environments/${name}/origins`, { key: env.secretKey, body: { allowedOrigins: [] } });
      assert.equal(response.status, 404);
      assert.equal((await json(response)).error.code, 'not_found');
    }
    const created = await call(h, 'POST', '/v1/environments', { key: other.secretKey, body: { name: 'only-other', allowedOrigins: [] } });
    assert.equal(created.status, 201);
    const foreign = await call(h, 'PATCH', '/v1/environments/only-other/origins', { key: env.secretKey, body: { allowedOrigins: [] } });
    assert.equal(foreign.status, 404);
  });

  it('rejects 51 origins and invalid forms with the offending index', async () => {
    const response = await call(h, 'PATCH', '/v1/environments/production/origins', {
      key: env.secretKey,
      body: { allowedOrigins: ['https://ok.example.com', 'https://ok2.example.com', 'https://ok3.example.com', 'javascript:alert(1)'] },
    });
    assert.equal(response.status, 400);
    assert.equal((await json(response)).error.details[0].path, 'allowedOrigins.3');
    const tooMany = await call(h, 'PATCH', '/v1/environments/production/origins', { key: env.secretKey, body: { allowedOrigins: origins(51) } });
    assert.equal(tooMany.status, 400);
  });

  it('refuses a wildcard over a public suffix (ICANN or private), naming the entry, and stores nothing', async () => {
    const cases: [string, string, string][] = [
      ['PATCH', '/v1/environments/production/origins', 'https://*.co.uk'],
      ['PATCH', '/v1/environments/production/origins', 'https://*.GitHub.io'],
      ['PATCH', '/v1/environments/production/origins', 'https://*.s3.amazonaws.com'],
      ['POST', '/v1/environments', 'https://*.co.uk'],
    ];
    for (const [method, path, entry] of cases) {
      const allowedOrigins = ['https://shop.example.co.uk', entry];
      const response = await call(h, method, path, { key: env.secretKey, body: method === 'POST' ? { name: 'suffix', allowedOrigins } : { allowedOrigins } });
      assert.equal(response.status, 400, entry);
      const { error } = await json(response);
      assert.equal(error.code, 'validation_failed');
      assert.equal(error.details[0].path, 'allowedOrigins.1');
      assert.match(error.details[0].message, new RegExp(`^"${entry.replace(/[.*]/g, '\\$&')}" spans the public suffix `));
    }
    assert.deepEqual(await h.sql("SELECT name FROM environments WHERE name = 'suffix'"), []);
    const [stored] = await h.sql<{ allowed_origins: unknown }>("SELECT k.allowed_origins FROM api_keys k JOIN environments e ON e.id = k.environment_id WHERE e.name = 'production' AND k.kind = 'public' AND k.active");
    assert.ok(!JSON.stringify(stored).includes('*.'));
    // A wildcard under a suffix, one's own domain, is still fine.
    const own = await call(h, 'PATCH', '/v1/environments/production/origins', { key: env.secretKey, body: { allowedOrigins: ['https://*.example.co.uk', 'https://*.me.github.io', 'https://app.example.com'] } });
    assert.equal(own.status, 200);
  });
});

describe('a wildcard over a public suffix stored before it was refused', () => {
  it("allows no origin, while the key's other entries still do and the listing still shows it", async () => {
    const legacy = await createTestEnvironment(h, { name: 'legacy' });
    const stored = JSON.stringify(['https://*.co.uk', 'https://*.example.co.uk']);
    await h.sql("UPDATE api_keys SET allowed_origins = ? WHERE environment_id = ? AND kind = 'public'", stored, legacy.environmentId);
    const fromPage = (origin: string) => call(h, 'GET', '/v1/themes', { key: legacy.publicKey, origin });
    const foreign = await fromPage('https://evil.co.uk');
    assert.equal(foreign.status, 403);
    assert.equal((await json(foreign)).error.code, 'origin_not_allowed');
    assert.equal(foreign.headers.get('Access-Control-Allow-Origin'), null);
    const preflight = await h.app.request('/v1/themes', { method: 'OPTIONS', headers: { Origin: 'https://evil.co.uk', 'Access-Control-Request-Method': 'GET' } });
    assert.equal(preflight.status, 403);
    const own = await fromPage('https://shop.example.co.uk');
    assert.equal(own.status, 404);
    assert.equal(own.headers.get('Access-Control-Allow-Origin'), 'https://shop.example.co.uk');
    const listed = (await json(await call(h, 'GET', '/v1/environments', { key: env.secretKey }))).data.find((e: { name: string }) => e.name === 'legacy');
    assert.deepEqual(listed.publicKey.allowedOrigins, ['https://*.co.uk', 'https://*.example.co.uk']);
  });
});

describe('GET /v1/environments', () => {
  it('lists only the caller’s account', async () => {
    const mine = await json(await call(h, 'GET', '/v1/environments', { key: env.secretKey }));
    const theirs = await json(await call(h, 'GET', '/v1/environments', { key: other.secretKey }));
    assert.ok(mine.data.every((e: { name: string }) => e.name !== 'only-other'));
    assert.ok(theirs.data.some((e: { name: string }) => e.name === 'only-other'));
    assert.ok(theirs.data.every((e: { name: string }) => e.name !== 'staging'));
  });
});

describe('CORS', () => {
  it('answers a preflight for an allowed origin and echoes it; refuses a foreign one', async () => {
    const ok = await h.app.request('/v1/templates/x', { method: 'OPTIONS', headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'GET' } });
    assert.equal(ok.status, 204);
    assert.equal(ok.headers.get('Access-Control-Allow-Origin'), 'https://app.example.com');
    assert.match(ok.headers.get('Vary') ?? '', /Origin/);
    const foreign = await h.app.request('/v1/templates/x', { method: 'OPTIONS', headers: { Origin: 'https://evil.example.net' } });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.headers.get('Access-Control-Allow-Origin'), null);
  });

  it('sends no CORS allowance on Secret Key endpoints, and refuses a Secret Key from a browser', async () => {
    const response = await call(h, 'GET', '/v1/environments', { key: env.secretKey, origin: 'https://app.example.com' });
    assert.equal(response.status, 403);
    assert.equal((await json(response)).error.code, 'secret_key_in_browser');
    assert.equal(response.headers.get('Access-Control-Allow-Origin'), null);
  });
});

for (const [method, path, body] of [
  ['POST', '/v1/environments', { name: 'auth-suite', allowedOrigins: [] }],
  ['GET', '/v1/environments', undefined],
  ['PATCH', '/v1/environments/production/origins', { allowedOrigins: [] }],
  ['POST', '/v1/environments/production/keys/roll', { kind: 'public', expireOldInSeconds: 60 }],
] as const) {
  authFailureSuite({
    name: `${method} ${path}`,
    harness: () => h,
    env: () => env,
    other: () => other,
    method,
    path: () => path,
    credential: 'secret',
    body: body === undefined ? undefined : () => body,
  });
}
