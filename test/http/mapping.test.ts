import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_HEADERS, MAX_LABEL_CHARS } from '../../src/services/mapping';
import { authFailureSuite } from '../helpers/auth-suite';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

const PATH = '/v1/intelligence/map-headers';
const item = (key: string, label = key) => ({ key, label });

// An English template against a file whose headers are German, French, Spanish and Italian.
const multilingual = {
  schemaHeaders: [
    item('first_name', 'First name'),
    item('last_name', 'Last name'),
    item('email', 'Email'),
    item('phone', 'Phone'),
    item('zip', 'ZIP code'),
    item('city', 'City'),
    item('dob', 'Date of birth'),
    item('vat', 'VAT number'),
  ],
  fileHeaders: [
    item('c0', 'Vorname'),
    item('c1', 'Nachname'),
    item('c2', 'Courriel'),
    item('c3', 'Teléfono'),
    item('c4', 'PLZ'),
    item('c5', 'Città'),
    item('c6', 'Geburtsdatum'),
    item('c7', 'Notizen'),
  ],
};
const expected = { first_name: 'c0', last_name: 'c1', email: 'c2', phone: 'c3', zip: 'c4', city: 'c5', dob: 'c6' };

describe(`POST ${PATH}`, () => {
  const { h, env, other } = useHarness({ environments: { other: { account: 'other-account' } } });

  const post = (body: unknown) => call(h, 'POST', PATH, { key: env.secretKey, body });

  describe('validation', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => item(`k${i}`));
    const cases: [string, unknown, string][] = [
      ['missing schemaHeaders', { fileHeaders: [] }, 'schemaHeaders'],
      ['missing fileHeaders', { schemaHeaders: [] }, 'fileHeaders'],
      ['non-array schemaHeaders', { schemaHeaders: 'email', fileHeaders: [] }, 'schemaHeaders'],
      ['non-array fileHeaders', { schemaHeaders: [], fileHeaders: { key: 'a', label: 'A' } }, 'fileHeaders'],
      ['non-string label', { schemaHeaders: [], fileHeaders: [item('a'), { key: 'b', label: 5 }] }, 'fileHeaders.1.label'],
      ['non-string key', { schemaHeaders: [{ key: 1, label: 'A' }], fileHeaders: [] }, 'schemaHeaders.0.key'],
      ['missing label', { schemaHeaders: [{ key: 'a' }], fileHeaders: [] }, 'schemaHeaders.0.label'],
      ['empty key', { schemaHeaders: [], fileHeaders: [item('')] }, 'fileHeaders.0.key'],
      ['duplicate schema key', { schemaHeaders: [item('a'), item('b'), item('c'), item('a')], fileHeaders: [] }, 'schemaHeaders.3.key'],
      ['duplicate file key', { schemaHeaders: [], fileHeaders: [item('x'), item('x')] }, 'fileHeaders.1.key'],
      ['too many items', { schemaHeaders: [], fileHeaders: many(MAX_HEADERS + 1) }, 'fileHeaders'],
      ['a label over the cap', { schemaHeaders: [item('a', 'x'.repeat(MAX_LABEL_CHARS + 1))], fileHeaders: [] }, 'schemaHeaders.0.label'],
      ['a key over the cap', { schemaHeaders: [], fileHeaders: [item('k'.repeat(MAX_LABEL_CHARS + 1), 'A')] }, 'fileHeaders.0.key'],
      ['a long sample', { schemaHeaders: [], fileHeaders: [{ ...item('a'), samples: ['s'.repeat(201)] }] }, 'fileHeaders.0.samples.0'],
      ['a long description', { schemaHeaders: [{ ...item('a'), description: 'd'.repeat(1001) }], fileHeaders: [] }, 'schemaHeaders.0.description'],
      ['too many samples', { schemaHeaders: [{ ...item('a'), samples: many(21).map((i) => i.key) }], fileHeaders: [] }, 'schemaHeaders.0.samples'],
      ['non-string sample', { schemaHeaders: [], fileHeaders: [{ ...item('a'), samples: [1] }] }, 'fileHeaders.0.samples.0'],
    ];
    for (const [name, body, path] of cases) {
      it(`answers 400 validation_failed at ${path} for ${name}`, async () => {
        const response = await post(body);
        const { error } = await json(response);
        assert.equal(response.status, 400, JSON.stringify(error));
        assert.equal(error.code, 'validation_failed');
        assert.ok(error.details.some((d: { path: string }) => d.path === path), JSON.stringify(error.details));
      });
    }

    it('answers 400 invalid_json for a malformed body', async () => {
      const response = await call(h, 'POST', PATH, { key: env.secretKey, rawBody: '{"schemaHeaders": [' });
      assert.equal(response.status, 400);
      assert.equal((await json(response)).error.code, 'invalid_json');
    });
  });

  describe('cost', () => {
    // Words the vocabulary does not know, so every pair is compared character by character.
    const words = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `w${((i * 7919 + seed * 104729) % 99991).toString(36)}x`);
    const label = (i: number, chars: number) => words(60, i).join(' ').slice(0, chars);
    const side = (n: number, chars: number, prefix: string) => Array.from({ length: n }, (_, i) => item(`${prefix}${i}`, label(i, chars)));

    it('refuses 300 x 300 labels of 500 characters at once, at the first label over the cap', async () => {
      const response = await post({ schemaHeaders: side(300, 500, 's'), fileHeaders: side(300, 500, 'f') });
      const { error } = await json(response);
      assert.equal(response.status, 400);
      assert.equal(error.code, 'validation_failed');
      assert.ok(error.details.some((d: { path: string }) => d.path === 'schemaHeaders.0.label'));
    });

    it('refuses 500 x 500 labels of 200 characters as too much work, before comparing them', async () => {
      const response = await post({ schemaHeaders: side(MAX_HEADERS, MAX_LABEL_CHARS, 's'), fileHeaders: side(MAX_HEADERS, MAX_LABEL_CHARS, 'f') });
      const { error } = await json(response);
      assert.equal(response.status, 400, JSON.stringify(error));
      assert.equal(error.code, 'validation_failed');
      assert.match(error.message, /too much work .*budget/);
    });

    it('maps 500 x 500 short headers, giving the event loop back while it works', async () => {
      const labels = Array.from({ length: MAX_HEADERS }, (_, i) => `Custom field ${i}`);
      const body = { schemaHeaders: labels.map((l, i) => item(`s${i}`, l)), fileHeaders: labels.map((l, i) => item(`f${i}`, l)).reverse() };
      let ticks = 0;
      const timer = setInterval(() => ticks++, 1);
      const pending = post(body);
      const response = await pending;
      clearInterval(timer);
      assert.equal(response.status, 200);
      const result = await json<Record<string, { fileKey: string }>>(response);
      assert.equal(result.s42?.fileKey, 'f42');
      // Timers fire only when the matcher yields; run in one piece they would not have fired at all.
      assert.ok(ticks >= 2, `${ticks} timer ticks`);
    });
  });

  it('answers {} for empty inputs', async () => {
    for (const body of [
      { schemaHeaders: [], fileHeaders: [] },
      { schemaHeaders: [item('email', 'Email')], fileHeaders: [] },
      { schemaHeaders: [], fileHeaders: [item('email', 'Email')] },
    ]) {
      const response = await post(body);
      assert.equal(response.status, 200);
      assert.deepEqual(await json(response), {});
    }
  });

  it('maps multilingual headers one-to-one with fileKey and confidence, leaving the unmatched out', async () => {
    const response = await post(multilingual);
    assert.equal(response.status, 200);
    const body = await json<Record<string, { fileKey: string; confidence: number }>>(response);
    assert.deepEqual(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v.fileKey])), expected);
    for (const mapping of Object.values(body)) {
      assert.deepEqual(Object.keys(mapping).sort(), ['confidence', 'fileKey']);
      assert.ok(mapping.confidence > 0 && mapping.confidence <= 1);
    }
    const fileKeys = Object.values(body).map((m) => m.fileKey);
    assert.equal(new Set(fileKeys).size, fileKeys.length);
  });

  it('accepts the Public Key from an allowed origin and refuses it from a foreign one', async () => {
    const allowed = await call(h, 'POST', PATH, { key: env.publicKey, origin: env.origin, body: multilingual });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('Access-Control-Allow-Origin'), env.origin);
    assert.equal((await json(allowed)).email.fileKey, 'c2');
    const foreign = await call(h, 'POST', PATH, { key: env.publicKey, origin: 'https://evil.example.net', body: multilingual });
    assert.equal(foreign.status, 403);
    assert.equal((await json(foreign)).error.code, 'origin_not_allowed');
  });

  it('is in the OpenAPI document with both credentials and the mapping response', async () => {
    const doc = await json(await call(h, 'GET', '/v1/openapi.json'));
    const operation = doc.paths[PATH].post;
    assert.deepEqual(operation.security, [{ secretKey: [] }, { publicKey: [] }]);
    assert.equal(operation.requestBody.content['application/json'].schema.$ref, '#/components/schemas/MapHeadersInput');
    assert.equal(operation.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/MapHeadersOutput');
    assert.equal(doc.components.schemas.MapHeadersOutput.additionalProperties.$ref, '#/components/schemas/HeaderMapping');
  });

  authFailureSuite({
    name: `POST ${PATH}`,
    harness: () => h,
    env: () => env,
    other: () => other,
    method: 'POST',
    path: () => PATH,
    credential: 'secret-or-public',
    body: () => multilingual,
  });
});
