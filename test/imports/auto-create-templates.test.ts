import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { issueSession } from '../../src/services/sessions';
import { createTemplate } from '../../src/services/templates';
import { call, json, type Harness } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

// Issue 41: an end-user's session cannot fill the account with templates, nor take a key before the customer
// creates it, unless the environment allows it (autoCreateTemplates).

const templateKeys = async (h: Harness) => (await h.sql<{ key: string }>('SELECT key FROM templates ORDER BY key')).map((row) => row.key);

describe('POST /v1/imports: auto-created templates need autoCreateTemplates for Public Key sessions', () => {
  const { h, env } = useHarness();

  const sdkImport = async (body: Record<string, unknown>) => {
    const { sessionToken } = await issueSession(h.ctx, env, { endUserId: 'end-user' });
    return call(h, 'POST', '/v1/imports', { key: env.publicKey, origin: env.origin, session: sessionToken, body: { rows: [{ a: 1 }], ...body } });
  };

  it('refuses with 403 template_not_allowed by default, creating nothing; an existing template is still used', async () => {
    await createTemplate(h.ctx, env.accountId, { key: 'contacts', schema: {} });
    for (const body of [{ meta: { schemaKey: 'invoices' } }, { originalSchema: { key: 'squatted', fields: [] } }, { originalSchema: { fields: [{ key: 'x' }] } }]) {
      const refused = await sdkImport(body);
      assert.equal(refused.status, 403, JSON.stringify(body));
      const error = (await json(refused)).error;
      assert.equal(error.code, 'template_not_allowed');
      assert.match(error.message, /autoCreateTemplates/);
    }
    assert.deepEqual(await templateKeys(h), ['contacts']);
    assert.equal((await sdkImport({ meta: { schemaKey: 'contacts' } })).status, 201);
    // The customer can still create the key the end-user tried.
    assert.equal((await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { key: 'invoices', schema: {} } })).status, 201);
  });

  it('lets a Secret Key import create a template whatever the setting', async () => {
    const created = await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: 'by-secret-key' }, rows: [{ a: 1 }] } });
    assert.equal(created.status, 201);
    assert.ok((await templateKeys(h)).includes('by-secret-key'));
  });

  it('creates once PATCH /v1/environments/{name} turns autoCreateTemplates on, and refuses again once off', async () => {
    const patch = (body: unknown, name = env.name) => call(h, 'PATCH', `/v1/environments/${encodeURIComponent(name)}`, { key: env.secretKey, body });
    const on = await patch({ autoCreateTemplates: true });
    assert.equal(on.status, 200);
    assert.equal((await json(on)).autoCreateTemplates, true);
    assert.equal((await sdkImport({ meta: { schemaKey: 'allowed-now' } })).status, 201);
    assert.ok((await templateKeys(h)).includes('allowed-now'));
    assert.equal((await patch({ autoCreateTemplates: false })).status, 200);
    assert.equal((await sdkImport({ meta: { schemaKey: 'refused-again' } })).status, 403);
    for (const bad of [{}, { autoCreateTemplates: 'yes' }, { autoCreateTemplates: true, other: 1 }]) {
      assert.equal((await patch(bad)).status, 400, JSON.stringify(bad));
    }
    assert.equal((await patch({ autoCreateTemplates: true }, 'missing')).status, 404);
  });

  it('takes autoCreateTemplates on POST /v1/environments and shows it in the list', async () => {
    const created = await call(h, 'POST', '/v1/environments', { key: env.secretKey, body: { name: 'open', allowedOrigins: [], autoCreateTemplates: true } });
    assert.equal(created.status, 201);
    assert.equal((await json(created)).autoCreateTemplates, true);
    const list = (await json(await call(h, 'GET', '/v1/environments', { key: env.secretKey }))).data;
    assert.deepEqual(list.map((e: { name: string; autoCreateTemplates: boolean }) => [e.name, e.autoCreateTemplates]), [[env.name, false], ['open', true]]);
  });
});
