import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

describe('templates: a declared schema is checked when written', () => {
  const { h, env } = useHarness();
  const post = (body: unknown) => call(h, 'POST', '/v1/templates', { key: env.secretKey, body });
  const put = (id: string, body: unknown) => call(h, 'PUT', `/v1/templates/${id}`, { key: env.secretKey, body });
  const count = async () => (await h.sql('SELECT count(*) AS n FROM templates'))[0]!.n;

  const bad: [string, unknown, string][] = [
    ['an unknown type', { fields: [{ key: 'a', type: 'text' }] }, 'schema.fields.0.type'],
    ['an enum without options', { fields: [{ key: 'a', type: 'enum' }] }, 'schema.fields.0.options'],
    ['min > max', { fields: [{ key: 'a', type: 'integer', min: 2, max: 1 }] }, 'schema.fields.0.min'],
    ['a pattern that does not compile', { fields: [{ key: 'a', pattern: '[' }] }, 'schema.fields.0.pattern'],
    ['a key twice', { fields: ['a', 'a'] }, 'schema.fields.1.key'],
  ];

  it('POST answers 400 validation_failed naming the path, and stores nothing', async () => {
    for (const [name, schema, path] of bad) {
      const before = await count();
      const response = await post({ key: `t-${name}`, schema });
      assert.equal(response.status, 400, name);
      const { error } = await json(response);
      assert.equal(error.code, 'validation_failed');
      assert.ok(error.details.some((detail: { path: string }) => detail.path === path), `${name}: ${JSON.stringify(error.details)}`);
      assert.equal(await count(), before);
    }
  });

  it('PUT answers the same and leaves the stored schema as it was', async () => {
    const created = await json(await post({ key: 'contacts', schema: { fields: [{ key: 'email', type: 'email' }] } }));
    for (const [name, schema, path] of bad) {
      const response = await put(created.id, { schema });
      assert.equal(response.status, 400, name);
      assert.ok((await json(response)).error.details.some((detail: { path: string }) => detail.path === path), name);
    }
    const stored = await h.ctx.store.templates.find(env.accountId, created.id);
    assert.deepEqual(JSON.parse(stored!.schema), { fields: [{ key: 'email', type: 'email' }] });
  });

  it('stores a valid declared schema exactly as sent (defaults are not written into it)', async () => {
    const schema = { fields: ['a', { key: 'b', type: 'enum', options: ['x'] }], onInvalid: 'reject', custom: 1 };
    const response = await post({ key: 'declared', schema });
    assert.equal(response.status, 201);
    assert.deepEqual((await json(response)).schema, schema);
  });
});
