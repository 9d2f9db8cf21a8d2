import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, json, testClock, type TestEnvironment } from '../helpers/harness';
import { injectFailure } from '../helpers/inject-failure';
import { useHarness } from '../helpers/use-harness';
import { postImport } from '../imports/helpers';
import { templateIdOf } from './learned-helpers';

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

  const mapFor = async (e: TestEnvironment, body: Record<string, unknown> = request, templateKey: string | null = 'contacts') => {
    const templateId = templateKey === null ? undefined : await templateIdOf(h, e, templateKey);
    const response = await call(h, 'POST', PATH, { key: e.secretKey, body: { ...body, templateId } });
    assert.equal(response.status, 200);
    return json<Answer>(response);
  };
  const learnedRows = () => h.sql('SELECT schema_key, file_label FROM learned_mappings ORDER BY schema_key');
  const importCount = async () => (await h.sql<{ n: number | string }>('SELECT count(*) AS n FROM imports')).map((r) => Number(r.n))[0];
  const postMapping = (mapping: string) =>
    call(h, 'POST', '/v1/imports', {
      key: env.secretKey,
      rawBody: `{"meta":{"schemaKey":"contacts","mapping":${mapping}},"rows":[{"email":"a@example.com"}]}`,
    });

  it('refuses a malformed meta.mapping with 400 at its path, storing nothing', async () => {
    const many = Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`k${i}`, `Label ${i}`]));
    const cases: [unknown, string][] = [
      [{ email: 7 }, 'meta.mapping.email'],
      [{ email: 'x'.repeat(201) }, 'meta.mapping.email'],
      [{ email: '' }, 'meta.mapping.email'],
      [{ email: ' \t ' }, 'meta.mapping.email'],
      [{ ['k'.repeat(201)]: 'Email' }, `meta.mapping.${'k'.repeat(201)}`],
      [{ 'a\u0000b': 'Email' }, 'meta.mapping.a\u0000b'],
      ['email', 'meta.mapping'],
      [['Email'], 'meta.mapping'],
      [many, 'meta.mapping'],
    ];
    const before = await importCount();
    for (const [mapping, path] of cases) {
      const response = await postImport(h, env, { meta: { schemaKey: 'contacts', mapping }, rows: [{ email: 'a@example.com' }] });
      const { error } = await json(response);
      assert.equal(response.status, 400, JSON.stringify(mapping).slice(0, 80));
      assert.equal(error.code, 'validation_failed');
      assert.ok(error.details.some((d: { path: string }) => d.path === path), JSON.stringify(error.details));
    }
    // JSON.parse makes "__proto__" an own member, which z.record would skip unchecked.
    for (const value of ['7', 'null', 'true', '""', '"  "', '["Email"]', '{"a":1}', `"${'x'.repeat(60_000)}"`]) {
      const response = await postMapping(`{"email":"Email","__proto__":${value}}`);
      const { error } = await json(response);
      assert.equal(response.status, 400, value.slice(0, 20));
      assert.deepEqual(
        error.details.map((d: { path: string }) => d.path),
        ['meta.mapping.__proto__'],
      );
    }
    assert.deepEqual(await learnedRows(), []);
    assert.equal(await importCount(), before);
  });

  it('remembers a "__proto__" schema key like any other', async () => {
    const offline = await mapFor(env, { schemaHeaders: [item('__proto__', 'Email')], fileHeaders: [item('c0', 'E-mail')] }, null);
    assert.deepEqual(Object.entries(offline).map(([k, v]) => [k, v.fileKey, v.source]), [['__proto__', 'c0', undefined]]);
    const created = await postMapping('{"__proto__":"Mail address"}');
    assert.equal(created.status, 201, await created.clone().text());
    assert.deepEqual(await h.sql("SELECT file_label FROM learned_mappings WHERE schema_key = '__proto__'"), [{ file_label: 'Mail address' }]);
    const answer = await mapFor(env, { schemaHeaders: [item('__proto__', 'P')], fileHeaders: [item('c0', 'Phone'), item('c1', 'mail ADDRESS ')] });
    assert.deepEqual(Object.entries(answer), [['__proto__', { fileKey: 'c1', confidence: 0.97, source: 'learned' }]]);
    await h.sql("DELETE FROM learned_mappings WHERE schema_key = '__proto__'");
  });

  it('stores the labels with the import, or neither', async () => {
    const remove = await injectFailure(h, 'fail_learned_insert', 'INSERT', 'learned_mappings', "NEW.schema_key = 'boom'");
    try {
      const before = await importCount();
      const response = await postImport(h, env, { meta: { schemaKey: 'contacts', mapping: { boom: 'Email' } }, rows: [{ email: 'a@example.com' }] });
      assert.equal(response.status, 500);
      assert.equal(await importCount(), before);
      assert.deepEqual(await learnedRows(), []);
    } finally {
      await remove();
    }
  });

  it('prefers the labels a Secret Key import confirmed, for that template and account only', async () => {
    const before = await mapFor(env, request, null);
    assert.equal(before.email?.fileKey, 'c0');
    assert.equal(before.segment, undefined);
    assert.ok(Object.values(before).every((m) => m.source === undefined));
    const otherTemplate = await postImport(h, env, { meta: { schemaKey: 'orders' }, rows: [{ email: 'a@example.com' }] });
    assert.equal(otherTemplate.status, 201);

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

    // Only the template's own imports count: not another template's, not a call that names none, not another account's.
    assert.deepEqual(await mapFor(env, request, 'orders'), before);
    assert.deepEqual(await mapFor(env, request, null), before);
    const foreign = await call(h, 'POST', PATH, { key: other.secretKey, body: { ...request, templateId: await templateIdOf(h, env, 'contacts') } });
    assert.deepEqual(await json(foreign), before);
  });

  it('documents source in the OpenAPI schema', async () => {
    const doc = await json(await call(h, 'GET', '/v1/openapi.json'));
    assert.deepEqual(doc.components.schemas.HeaderMapping.properties.source.enum, ['learned']);
    assert.equal(doc.components.schemas.CreateImportInput.properties.meta.properties.mapping.$ref, '#/components/schemas/ConfirmedMapping');
    assert.equal(doc.components.schemas.ConfirmedMapping.additionalProperties.maxLength, 200);
    assert.match(doc.components.schemas.MapHeadersInput.properties.fileHeaders.description, /unique/);
  });
});

describe('learned mappings over time', () => {
  const clock = testClock();
  const { h, env } = useHarness({ clock });
  const confirm = async (mapping: Record<string, string>) => {
    const response = await postImport(h, env, { meta: { schemaKey: 'contacts', mapping }, rows: [{ email: 'a@example.com' }] });
    assert.equal(response.status, 201, await response.clone().text());
  };
  const keys = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);
  const storedKeys = async () => (await h.sql<{ schema_key: string }>('SELECT schema_key FROM learned_mappings ORDER BY schema_key')).map((r) => r.schema_key);

  it('gives a label two schema keys learned to the one confirmed last', async () => {
    const body = { schemaHeaders: [item('email', 'E-mail'), item('work_email', 'Work e-mail')], fileHeaders: [item('c0', 'Email')] };
    const learnedKey = async () => {
      const templateId = await templateIdOf(h, env, 'contacts');
      return Object.keys(await json<Answer>(await call(h, 'POST', PATH, { key: env.secretKey, body: { ...body, templateId } })));
    };
    clock.advance(1000);
    await confirm({ work_email: 'Email' });
    clock.advance(1000);
    await confirm({ email: 'Email' });
    assert.deepEqual(await learnedKey(), ['email']);
    clock.advance(1000);
    await confirm({ work_email: 'Email' });
    assert.deepEqual(await learnedKey(), ['work_email']);
    await h.sql('DELETE FROM learned_mappings');
  });

  it('keeps the 5 000 most recently confirmed of a template, however many share a moment', async () => {
    // Every import at the same millisecond: ties go by schema key, so exactly the 5 000 greatest stay.
    for (let i = 0; i < 11; i++) await confirm(Object.fromEntries(keys(`t${String(i).padStart(2, '0')}_`, 500).map((k) => [k, 'Label'])));
    const stored = await storedKeys();
    assert.equal(stored.length, 5000);
    assert.equal(stored[0], 't01_000');
    // A later import pushes out the least recent, whatever their keys.
    clock.advance(1000);
    await confirm(Object.fromEntries(keys('a', 300).map((k) => [k, 'Label'])));
    const after = await storedKeys();
    assert.equal(after.length, 5000);
    assert.deepEqual(after.slice(0, 301), [...keys('a', 300), 't01_300']);
    await h.sql('DELETE FROM learned_mappings');
  });

  it('remembers concurrent confirmations of one account in any key order', async () => {
    const forward = keys('k', 500);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        postImport(h, env, {
          meta: { schemaKey: 'contacts', mapping: Object.fromEntries((i % 2 ? [...forward].reverse() : forward).map((k) => [k, `Label ${i}`])) },
          rows: [{ email: 'a@example.com' }],
        }),
      ),
    );
    assert.deepEqual(responses.map((r) => r.status), Array(40).fill(201));
    assert.deepEqual(await storedKeys(), forward);
  });
});
