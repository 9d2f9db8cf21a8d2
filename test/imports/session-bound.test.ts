import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { decodeJwt, SignJWT } from 'jose';
import { issueSession } from '../../src/services/sessions';
import { createTemplate } from '../../src/services/templates';
import { call, createTestEnvironment, json, testClock, type Harness } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { countRows } from './helpers';

const countTemplates = async (h: Harness) => (await h.sql<{ n: number }>('SELECT count(*) AS n FROM templates'))[0]!.n;

describe('sessions on POST /v1/imports: bound templates, stored expiry, meta.publicKey', () => {
  const clock = testClock();
  const { h, env } = useHarness({ clock });
  let contacts: string;
  let other: string;
  before(async () => {
    contacts = (await createTemplate(h.ctx, env.accountId, { key: 'contacts', schema: { key: 'contacts', fields: [] } })).id;
    other = (await createTemplate(h.ctx, env.accountId, { key: 'other', schema: { key: 'other', fields: [] } })).id;
  });

  const sdkImport = (session: string, body: Record<string, unknown>) =>
    call(h, 'POST', '/v1/imports', { key: env.publicKey, origin: env.origin, session, body: { rows: [{ a: 1 }], ...body } });

  it('refuses (403 template_not_allowed) an import into another template than the session names, creating none', async () => {
    const { sessionToken } = await issueSession(h.ctx, env, { endUserId: 'u-1', templateId: contacts });
    const templates = await countTemplates(h);
    const refused = [
      { meta: { schemaKey: 'other' } },
      { meta: { schemaId: other } },
      { meta: { schemaKey: 'brand-new' }, originalSchema: { key: 'brand-new' } },
      { originalSchema: { key: 'another-new', fields: [] } },
      { meta: { schemaId: other, schemaKey: 'contacts' } },
    ];
    for (const body of refused) {
      const response = await sdkImport(sessionToken, body);
      assert.equal(response.status, 403, JSON.stringify(body));
      assert.equal((await json(response)).error.code, 'template_not_allowed');
    }
    assert.equal(await countTemplates(h), templates, 'no template was auto-created');
    assert.equal(await countRows(h, 'imports'), 0);
  });

  it('imports into the session template when the body names it, or names none', async () => {
    const { sessionToken } = await issueSession(h.ctx, env, { endUserId: 'u-1', templateId: contacts });
    for (const body of [{ meta: { schemaKey: 'contacts' } }, { meta: { schemaId: contacts } }, {}, { originalSchema: { fields: [{ key: 'a' }] } }]) {
      const response = await sdkImport(sessionToken, body);
      assert.equal(response.status, 201, JSON.stringify(body));
      assert.equal((await json(response)).templateId, contacts);
    }
  });

  it('lets a session without a template resolve one, or create one where the environment allows it', async () => {
    const { sessionToken } = await issueSession(h.ctx, env, { endUserId: 'u-1' });
    assert.equal((await sdkImport(sessionToken, { meta: { schemaKey: 'made-by-import' } })).status, 403, 'autoCreateTemplates is off by default');
    assert.equal((await call(h, 'PATCH', `/v1/environments/${env.name}`, { key: env.secretKey, body: { autoCreateTemplates: true } })).status, 200);
    assert.equal((await json(await sdkImport(sessionToken, { meta: { schemaKey: 'other' } }))).templateId, other);
    assert.equal((await sdkImport(sessionToken, { meta: { schemaKey: 'made-by-import' } })).status, 201);
    assert.equal((await call(h, 'PATCH', `/v1/environments/${env.name}`, { key: env.secretKey, body: { autoCreateTemplates: false } })).status, 200);
  });

  it('checks the stored expiry: a token re-signed with a later exp is refused once the stored one passes', async () => {
    const { sessionToken } = await issueSession(h.ctx, env, { endUserId: 'u-1', expiresIn: 60 });
    const claims = decodeJwt(sessionToken);
    const resigned = await new SignJWT({ ...claims, exp: claims.exp! + 86_400 }).setProtectedHeader({ alg: 'HS256' }).sign(h.ctx.sessionSecret);
    assert.equal((await sdkImport(resigned, { meta: { schemaKey: 'other' } })).status, 201, 'valid while the stored expiry is ahead');
    clock.advance(61_000);
    const response = await sdkImport(resigned, { meta: { schemaKey: 'other' } });
    assert.equal(response.status, 401);
    assert.equal((await json(response)).error.code, 'invalid_session');
  });

  it('takes the Public Key from meta.publicKey (JSON body and NDJSON first line), never storing it', async () => {
    const { sessionToken } = await issueSession(h.ctx, env, { endUserId: 'u-meta' });
    const meta = { schemaKey: 'other', publicKey: env.publicKey, sessionToken };
    const viaJson = await call(h, 'POST', '/v1/imports', { origin: env.origin, body: { meta, rows: [{ a: 1 }] } });
    assert.equal(viaJson.status, 201, await viaJson.clone().text());
    assert.equal(viaJson.headers.get('Access-Control-Allow-Origin'), env.origin);
    const created = await json(viaJson);
    assert.deepEqual(created.meta, { schemaKey: 'other' });
    const detail = await json(await call(h, 'GET', `/v1/imports/${created.id}`, { key: env.secretKey }));
    assert.equal(detail.endUserId, 'u-meta');
    const ndjson = `${JSON.stringify({ meta })}\n{"a":1}\n{"a":2}\n`;
    const viaNdjson = await call(h, 'POST', '/v1/imports', { origin: env.origin, rawBody: ndjson, contentType: 'application/x-ndjson' });
    assert.equal(viaNdjson.status, 201, await viaNdjson.clone().text());
    assert.equal((await json(viaNdjson)).rowCount, 2);
  });

  it('checks meta.publicKey like a header key: origin, session, known key', async () => {
    const { sessionToken } = await issueSession(h.ctx, env, { endUserId: 'u-meta' });
    const before = await countRows(h, 'imports');
    const cases = [
      // The body is not even read: no Public Key allows these origins.
      { what: 'foreign origin', origin: 'https://evil.example.net', meta: { publicKey: env.publicKey, sessionToken }, status: 401, code: 'missing_credentials' },
      { what: 'no origin', origin: undefined, meta: { publicKey: env.publicKey, sessionToken }, status: 401, code: 'missing_credentials' },
      { what: 'no session', origin: env.origin, meta: { publicKey: env.publicKey }, status: 401, code: 'invalid_session' },
      { what: 'unknown key', origin: env.origin, meta: { publicKey: `pk_${'q'.repeat(40)}`, sessionToken }, status: 401, code: 'invalid_api_key' },
      { what: 'not a string', origin: env.origin, meta: { publicKey: 42, sessionToken }, status: 401, code: 'missing_credentials' },
      { what: 'no key at all', origin: env.origin, meta: { sessionToken }, status: 401, code: 'missing_credentials' },
    ];
    for (const c of cases) {
      const response = await call(h, 'POST', '/v1/imports', { origin: c.origin, body: { meta: { schemaKey: 'other', ...c.meta }, rows: [{ a: 1 }] } });
      assert.equal(response.status, c.status, c.what);
      assert.equal((await json(response)).error.code, c.code, c.what);
    }
    assert.equal(await countRows(h, 'imports'), before);
  });

  it('checks the origin of meta.publicKey against its own key, not just any key', async () => {
    const sibling = await createTestEnvironment(h, { name: 'sibling', origins: ['https://sibling.example.com'] });
    const { sessionToken } = await issueSession(h.ctx, env, { endUserId: 'u-meta' });
    const response = await call(h, 'POST', '/v1/imports', {
      origin: sibling.origin,
      body: { meta: { schemaKey: 'other', publicKey: env.publicKey, sessionToken }, rows: [{ a: 1 }] },
    });
    assert.equal(response.status, 403);
    assert.equal((await json(response)).error.code, 'origin_not_allowed');
  });

  it('refuses a keyless import body of another type at once, before reading it', async () => {
    const response = await call(h, 'POST', '/v1/imports', { origin: env.origin, rawBody: 'a,b\n1,2', contentType: 'text/csv' });
    assert.equal(response.status, 401);
    assert.equal((await json(response)).error.code, 'missing_credentials');
  });
});
