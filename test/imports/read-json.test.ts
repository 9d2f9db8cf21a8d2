import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { getImport, listImports, toDetail, toListItem } from '../../src/services/imports';
import { call, createTestSession } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { createImportOk } from './helpers';

// The detail and list routes splice the stored JSON (meta, file, cellStats) into their answers instead of
// parsing and serialising it: the text must be exactly JSON.stringify of the object shapes the service
// builds (and the CLI prints), for every kind of stored value.
describe('GET /v1/imports and /v1/imports/{id}: spliced JSON equals the object shapes', () => {
  const { h, env } = useHarness();
  before(async () => {
    const metas = [
      { schemaKey: 'contacts' },
      { schemaKey: 'contacts', file: { fileId: 'f-1', name: 'a "quoted" \u2028 name.csv', size: 12 }, '10': 'integer-like key', __proto__x: 1 },
      { schemaKey: 'contacts', nested: { deep: [1, -0, 1.5e300, null, true, 'é\u0000'] }, ['__proto__']: { polluted: true } },
    ];
    for (const meta of metas) await createImportOk(h, env, { meta, rows: [{ a: 1, b: 'x' }, { a: null, b: 'y@example.com' }] });
    const session = await createTestSession(h, env, { endUserId: 'user "1"', endUserEmail: 'u1@example.com' });
    const sdk = await call(h, 'POST', '/v1/imports', {
      key: env.publicKey,
      origin: env.origin,
      session: session.sessionToken,
      body: { meta: { schemaKey: 'contacts' }, rows: [{ a: 2 }] },
    });
    assert.equal(sdk.status, 201, await sdk.clone().text());
  });

  it('the list page, byte for byte', async () => {
    for (const query of ['limit=100', 'limit=2', 'limit=0', 'orderBy=updatedAt&direction=asc']) {
      const response = await call(h, 'GET', `/v1/imports?${query}`, { key: env.secretKey });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('Content-Type'), 'application/json');
      const text = await response.text();
      const { rows, pagination } = await listImports(h.ctx, env.accountId, Object.fromEntries(new URLSearchParams(query)) as never);
      const expected = { data: rows.map(toListItem), pagination };
      // nextCursor is signed per call but deterministic for the same page.
      assert.equal(text, JSON.stringify(expected), query);
    }
  });

  it('the detail, byte for byte, for every import', async () => {
    const page = await listImports(h.ctx, env.accountId, { limit: 100 } as never);
    assert.equal(page.rows.length, 4);
    for (const item of page.rows) {
      const response = await call(h, 'GET', `/v1/imports/${item.id}`, { key: env.secretKey });
      assert.equal(response.status, 200);
      assert.equal(await response.text(), JSON.stringify(toDetail(await getImport(h.ctx, env.accountId, item.id))));
    }
  });
});
