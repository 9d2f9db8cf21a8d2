import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, json, type TestEnvironment } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { postImport } from '../imports/helpers';

// Learned mappings end to end: an import's meta.mapping, then map-headers of the same and of another account.
const PATH = '/v1/intelligence/map-headers';
const item = (key: string, label = key) => ({ key, label });
const request = {
  schemaHeaders: [item('email', 'Email'), item('segment', 'Segment'), item('city', 'City')],
  fileHeaders: [item('c0', 'E-mail'), item('c1', 'Work mail addr'), item('c2', 'Bucket X7'), item('c3', 'Town')],
};
type Answer = Record<string, { fileKey: string; confidence: number; source?: string }>;

describe('mappings learned from imports', () => {
  const { h, env, other } = useHarness({ environments: { other: { account: 'other-account' } } });

  const mapFor = async (e: TestEnvironment, body: unknown = request) => {
    const response = await call(h, 'POST', PATH, { key: e.secretKey, body });
    assert.equal(response.status, 200);
    return json<Answer>(response);
  };
  const learnedRows = () => h.sql('SELECT schema_key, file_label FROM learned_mappings ORDER BY schema_key');

  it('refuses a malformed meta.mapping with 400 at its path, storing nothing', async () => {
    const many = Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`k${i}`, `Label ${i}`]));
    const cases: [unknown, string][] = [
      [{ email: 7 }, 'meta.mapping.email'],
      [{ email: 'x'.repeat(201) }, 'meta.mapping.email'],
      [{ email: '' }, 'meta.mapping.email'],
      ['email', 'meta.mapping'],
      [many, 'meta.mapping'],
    ];
    for (const [mapping, path] of cases) {
      const response = await postImport(h, env, { meta: { schemaKey: 'contacts', mapping }, rows: [{ email: 'a@example.com' }] });
      const { error } = await json(response);
      assert.equal(response.status, 400, JSON.stringify(mapping).slice(0, 80));
      assert.equal(error.code, 'validation_failed');
      assert.ok(error.details.some((d: { path: string }) => d.path === path), JSON.stringify(error.details));
    }
    assert.deepEqual(await learnedRows(), []);
  });

  it("prefers the labels an import confirmed, for that account only", async () => {
    const before = await mapFor(env);
    assert.equal(before.email?.fileKey, 'c0');
    assert.equal(before.segment, undefined);
    assert.ok(Object.values(before).every((m) => m.source === undefined));

    const mapping = { email: 'work mail addr', segment: 'Bucket X7', phone: 'Tel.' };
    const created = await postImport(h, env, { meta: { schemaKey: 'contacts', mapping }, rows: [{ email: 'a@example.com' }] });
    assert.equal(created.status, 201, await created.clone().text());
    assert.deepEqual(await learnedRows(), [
      { schema_key: 'email', file_label: 'work mail addr' },
      { schema_key: 'phone', file_label: 'Tel.' },
      { schema_key: 'segment', file_label: 'Bucket X7' },
    ]);

    const after = await mapFor(env);
    assert.deepEqual(after.email, { fileKey: 'c1', confidence: 0.97, source: 'learned' });
    assert.deepEqual(after.segment, { fileKey: 'c2', confidence: 0.97, source: 'learned' });
    // The rest is still matched offline, never onto a learned file header.
    assert.equal(after.city?.fileKey, 'c3');
    assert.equal(after.city?.source, undefined);

    // A remembered label absent from the file leaves the key to the matcher.
    const without = await mapFor(env, { ...request, fileHeaders: request.fileHeaders.filter((f) => f.key !== 'c1') });
    assert.equal(without.email?.fileKey, 'c0');
    assert.equal(without.email?.source, undefined);

    assert.deepEqual(await mapFor(other), before);
  });

  it('documents source in the OpenAPI schema', async () => {
    const doc = await json(await call(h, 'GET', '/v1/openapi.json'));
    assert.deepEqual(doc.components.schemas.HeaderMapping.properties.source.enum, ['learned']);
    assert.equal(doc.components.schemas.CreateImportInput.properties.meta.properties.mapping.$ref, '#/components/schemas/ConfirmedMapping');
    assert.equal(doc.components.schemas.ConfirmedMapping.additionalProperties.maxLength, 200);
  });
});
