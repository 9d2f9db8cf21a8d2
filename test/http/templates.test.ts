import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { call, json, testClock } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { SCHEMA_COLUMN, SCHEMA_VALUE, storeOriginalSchema } from '../helpers/imports-fixture';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TEMPLATE_MEMBERS = ['clientId', 'createdAt', 'id', 'key', 'metadata', 'schema', 'source', 'updatedAt'];

describe('templates', () => {
  const clock = testClock();
  const { h, env, other } = useHarness({ clock, environments: { other: { account: 'other-account' } } });
  const post = (body: unknown, key = env.secretKey) => call(h, 'POST', '/v1/templates', { key, body });
  const put = (id: string, body: unknown, key = env.secretKey) => call(h, 'PUT', `/v1/templates/${id}`, { key, body });
  const rowOf = (id: string) => h.ctx.store.templates.find(env.accountId, id);
  const countRows = async () => (await h.sql('SELECT count(*) AS n FROM templates'))[0]!.n;

  describe('POST /v1/templates', () => {
    it('creates a template keyed by schema.key, source studio, UUIDv7 id, clientId = account id', async () => {
      const schema = { key: 'contacts', fields: [{ key: 'email', type: 'email' }] };
      const response = await post({ schema });
      assert.equal(response.status, 201);
      const body = await json(response);
      assert.deepEqual(Object.keys(body).sort(), TEMPLATE_MEMBERS);
      assert.match(body.id, UUID_V7);
      assert.equal(body.key, 'contacts');
      assert.equal(body.clientId, env.accountId);
      assert.deepEqual(body.schema, schema);
      assert.equal(body.source, 'studio');
      assert.deepEqual(body.metadata, {});
      assert.equal(body.createdAt, clock().toISOString());
      assert.equal(body.updatedAt, body.createdAt);
      const row = (await rowOf(body.id))!;
      assert.equal(row.accountId, env.accountId);
      assert.deepEqual(JSON.parse(row.schema), schema);
    });

    it('takes key, metadata and source from the body, and keeps unusual member names exactly', async () => {
      const schema = JSON.parse('{"key":"ignored","__proto__":{"x":1},"constructor":"c"}');
      const response = await post({ schema, key: 'explicit', metadata: { team: 'ops' }, source: 'import' });
      assert.equal(response.status, 201);
      const text = await response.text();
      assert.match(text, /"schema":\{"key":"ignored","__proto__":\{"x":1\},"constructor":"c"\}/);
      const body = JSON.parse(text);
      assert.equal(body.key, 'explicit');
      assert.deepEqual(body.metadata, { team: 'ops' });
      assert.equal(body.source, 'import');
      assert.equal((await rowOf(body.id))!.schema, '{"key":"ignored","__proto__":{"x":1},"constructor":"c"}');
    });

    it('answers 409 for a key the account already has, and stores nothing', async () => {
      const before = await countRows();
      const response = await post({ schema: { fields: [] }, key: 'contacts' });
      assert.equal(response.status, 409);
      assert.equal((await json(response)).error.code, 'conflict');
      assert.equal(await countRows(), before);
    });

    it('lets another account use the same key', async () => {
      const response = await post({ schema: { key: 'contacts' } }, other.secretKey);
      assert.equal(response.status, 201);
      assert.equal((await json(response)).clientId, other.accountId);
    });

    const long = (n: number) => 'k'.repeat(n);
    const accepted: [string, unknown][] = [
      ['key of 1 character', { schema: {}, key: 'a' }],
      ['key of 255 characters', { schema: {}, key: long(255) }],
      ['source of 50 characters', { schema: {}, key: 'src-50', source: 's'.repeat(50) }],
      ['schema.key of 255 characters', { schema: { key: 'x'.repeat(255) } }],
    ];
    for (const [name, body] of accepted) {
      it(`accepts ${name}`, async () => assert.equal((await post(body)).status, 201));
    }

    const rejected: [string, unknown, string][] = [
      ['no schema', { key: 'a1' }, 'schema'],
      ['schema null', { schema: null, key: 'a1' }, 'schema'],
      ['schema an array', { schema: [], key: 'a1' }, 'schema'],
      ['schema a string', { schema: 'x', key: 'a1' }, 'schema'],
      ['schema a number', { schema: 1, key: 'a1' }, 'schema'],
      ['schema over 1 MiB', { schema: { blob: 'x'.repeat(1024 * 1024) }, key: 'a1' }, 'schema'],
      ['no key and no schema.key', { schema: { fields: [] } }, 'key'],
      ['key empty', { schema: {}, key: '' }, 'key'],
      ['key of 256 characters', { schema: {}, key: long(256) }, 'key'],
      ['key not a string', { schema: {}, key: 5 }, 'key'],
      ['key with a control character', { schema: {}, key: 'a\nb' }, 'key'],
      ['key with outer white space', { schema: {}, key: ' a' }, 'key'],
      ['schema.key not a string', { schema: { key: 5 } }, 'schema.key'],
      ['schema.key empty', { schema: { key: '' } }, 'schema.key'],
      ['schema.key of 256 characters', { schema: { key: long(256) } }, 'schema.key'],
      ['metadata an array', { schema: {}, key: 'a1', metadata: [] }, 'metadata'],
      ['metadata null', { schema: {}, key: 'a1', metadata: null }, 'metadata'],
      ['metadata a string', { schema: {}, key: 'a1', metadata: 'x' }, 'metadata'],
      ['metadata over 64 KiB', { schema: {}, key: 'a1', metadata: { blob: 'x'.repeat(65 * 1024) } }, 'metadata'],
      ['source empty', { schema: {}, key: 'a1', source: '' }, 'source'],
      ['source of 51 characters', { schema: {}, key: 'a1', source: 's'.repeat(51) }, 'source'],
      ['source with a space', { schema: {}, key: 'a1', source: 'a b' }, 'source'],
      ['source not a string', { schema: {}, key: 'a1', source: 1 }, 'source'],
    ];
    for (const [name, body, path] of rejected) {
      it(`rejects ${name}: 400 validation_failed at ${path}`, async () => {
        const before = await countRows();
        const response = await post(body);
        assert.equal(response.status, 400);
        const { error } = await json(response);
        assert.equal(error.code, 'validation_failed');
        assert.ok(error.details.some((d: { path: string }) => d.path === path), JSON.stringify(error.details));
        assert.equal(await countRows(), before);
      });
    }

    it('rejects a body that is not JSON with invalid_json', async () => {
      const response = await call(h, 'POST', '/v1/templates', { key: env.secretKey, rawBody: '{"schema":' });
      assert.equal(response.status, 400);
      assert.equal((await json(response)).error.code, 'invalid_json');
    });
  });

  describe('GET /v1/templates/{id}', () => {
    let id: string;
    before(async () => {
      id = (await json(await post({ schema: { key: 'readable', fields: [{ key: 'a' }] } }))).id;
    });

    it('answers the full template to the Secret Key', async () => {
      const response = await call(h, 'GET', `/v1/templates/${id}`, { key: env.secretKey });
      assert.equal(response.status, 200);
      const body = await json(response);
      assert.deepEqual(Object.keys(body).sort(), TEMPLATE_MEMBERS);
      assert.deepEqual(body.schema, { key: 'readable', fields: [{ key: 'a' }] });
      assert.equal(response.headers.get('Access-Control-Allow-Origin'), null);
    });

    it('answers the Public Key from an allowed origin, with CORS', async () => {
      const response = await call(h, 'GET', `/v1/templates/${id}`, { key: env.publicKey, origin: env.origin });
      assert.equal(response.status, 200);
      assert.equal((await json(response)).id, id);
      assert.equal(response.headers.get('Access-Control-Allow-Origin'), env.origin);
    });

    it('refuses the Public Key from a foreign origin', async () => {
      const response = await call(h, 'GET', `/v1/templates/${id}`, { key: env.publicKey, origin: 'https://evil.example.net' });
      assert.equal(response.status, 403);
      assert.equal((await json(response)).error.code, 'origin_not_allowed');
    });

    for (const [name, path] of [
      ['an unknown id', '/v1/templates/0190a000-0000-7000-8000-000000000000'],
      ['a malformed id', '/v1/templates/not-a-uuid'],
    ]) {
      it(`answers 404 for ${name}`, async () => {
        const response = await call(h, 'GET', path!, { key: env.secretKey });
        assert.equal(response.status, 404);
        assert.equal((await json(response)).error.code, 'not_found');
      });
    }

    it("answers 404 for another account's template, to both of its keys", async () => {
      assert.equal((await call(h, 'GET', `/v1/templates/${id}`, { key: other.secretKey })).status, 404);
      assert.equal((await call(h, 'GET', `/v1/templates/${id}`, { key: other.publicKey, origin: other.origin })).status, 404);
    });
  });

  describe('PUT /v1/templates/{id}', () => {
    let id: string;
    before(async () => {
      id = (await json(await post({ schema: { key: 'orders', v: 1 }, metadata: { m: 1 }, source: 'import' }))).id;
    });

    it('replaces the schema, keeps what is not given, moves updatedAt', async () => {
      const created = (await rowOf(id))!;
      clock.advance(5_000);
      const response = await put(id, { schema: { key: 'orders', v: 2 } });
      assert.equal(response.status, 200);
      const body = await json(response);
      assert.deepEqual(body.schema, { key: 'orders', v: 2 });
      assert.equal(body.key, 'orders');
      assert.deepEqual(body.metadata, { m: 1 });
      assert.equal(body.source, 'import');
      assert.equal(body.createdAt, created.createdAt);
      assert.equal(body.updatedAt, clock().toISOString());
      assert.notEqual(body.updatedAt, created.updatedAt);
      assert.deepEqual(JSON.parse((await rowOf(id))!.schema), { key: 'orders', v: 2 });
    });

    it('changes key, metadata and source when given', async () => {
      const response = await put(id, { schema: { v: 3 }, key: 'orders-v3', metadata: { m: 2 }, source: 'studio' });
      assert.equal(response.status, 200);
      const row = (await rowOf(id))!;
      assert.deepEqual([row.key, row.metadata, row.source, row.schema], ['orders-v3', '{"m":2}', 'studio', '{"v":3}']);
    });

    it('accepts the key the template already has', async () => {
      const response = await put(id, { schema: { v: 3 }, key: 'orders-v3' });
      assert.equal(response.status, 200);
      assert.equal((await rowOf(id))!.key, 'orders-v3');
    });

    it('answers 409 when the new key belongs to another template, and changes nothing', async () => {
      const before = (await rowOf(id))!;
      const response = await put(id, { schema: { v: 4 }, key: 'contacts' });
      assert.equal(response.status, 409);
      assert.equal((await json(response)).error.code, 'conflict');
      assert.deepEqual(await rowOf(id), before);
    });

    it('leaves existing imports with the schema they were made with', async () => {
      const snapshot = JSON.stringify({ v: 3 });
      const at = clock().toISOString();
      await h.sql(
        `INSERT INTO imports (id, account_id, environment_id, template_id, status, meta, created_at, updated_at${SCHEMA_COLUMN})
         VALUES ('0190a000-0000-7000-8000-0000000000aa', ?, ?, ?, 'complete', '{}', ?, ?${SCHEMA_VALUE})`,
        env.accountId, env.environmentId, id, at, at,
      );
      await storeOriginalSchema(h, '0190a000-0000-7000-8000-0000000000aa', snapshot);
      assert.equal((await put(id, { schema: { v: 5, fields: ['new'] } })).status, 200);
      const stored = (await h.ctx.store.imports.find(env.accountId, '0190a000-0000-7000-8000-0000000000aa'))!;
      assert.equal(stored.originalSchema, snapshot);
      assert.equal(stored.templateId, id);
      assert.equal(stored.updatedAt, at);
    });

    it("answers 404 for an unknown id and for another account's template, changing nothing", async () => {
      const before = (await rowOf(id))!;
      assert.equal((await put('0190a000-0000-7000-8000-000000000000', { schema: {} })).status, 404);
      const response = await put(id, { schema: { hijacked: true } }, other.secretKey);
      assert.equal(response.status, 404);
      assert.equal((await json(response)).error.code, 'not_found');
      assert.deepEqual(await rowOf(id), before);
    });

    const rejected: [string, unknown, string][] = [
      ['no schema', { key: 'x' }, 'schema'],
      ['schema an array', { schema: [] }, 'schema'],
      ['schema null', { schema: null }, 'schema'],
      ['schema over 1 MiB', { schema: { blob: 'x'.repeat(1024 * 1024) } }, 'schema'],
      ['key empty', { schema: {}, key: '' }, 'key'],
      ['key of 256 characters', { schema: {}, key: 'k'.repeat(256) }, 'key'],
      ['metadata an array', { schema: {}, metadata: [1] }, 'metadata'],
      ['source empty', { schema: {}, source: '' }, 'source'],
      ['source of 51 characters', { schema: {}, source: 's'.repeat(51) }, 'source'],
    ];
    for (const [name, body, path] of rejected) {
      it(`rejects ${name}: 400 validation_failed at ${path}, changing nothing`, async () => {
        const before = (await rowOf(id))!;
        const response = await put(id, body);
        assert.equal(response.status, 400);
        const { error } = await json(response);
        assert.equal(error.code, 'validation_failed');
        assert.ok(error.details.some((d: { path: string }) => d.path === path), JSON.stringify(error.details));
        assert.deepEqual(await rowOf(id), before);
      });
    }

    it('accepts a key of 255 characters', async () => {
      assert.equal((await put(id, { schema: {}, key: 'j'.repeat(255) })).status, 200);
    });
  });
});
