import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { MAX_HEADERS } from '../../src/services/mapping';
import { authFailureSuite } from '../helpers/auth-suite';
import { call, createHarness, createTestEnvironment, json, type Harness, type TestEnvironment } from '../helpers/harness';

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

// "Phone" against "Mobile" is a plausible but unsure pair: the one the LLM is asked about.
const unsure = {
  schemaHeaders: [item('phone', 'Phone'), item('email', 'Email')],
  fileHeaders: [{ ...item('a', 'Mobile'), samples: ['+49 170 1234567'] }, item('b', 'Fax'), item('m', 'E-Mail-Adresse')],
};

describe(`POST ${PATH}`, () => {
  let h: Harness;
  let env: TestEnvironment;
  let other: TestEnvironment;
  before(() => {
    h = createHarness();
    env = createTestEnvironment(h);
    other = createTestEnvironment(h, { account: 'other-account' });
  });
  after(() => h.close());

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

describe(`POST ${PATH} with an LLM configured`, () => {
  type Reply = (req: IncomingMessage, res: ServerResponse) => void;
  let server: Server;
  let h: Harness;
  let env: TestEnvironment;
  let reply: Reply;
  let received: { body: any; authorization?: string }[];
  const chat = (content: string): Reply => (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
  };

  before(async () => {
    server = createServer((req, res) => {
      let data = '';
      req.on('data', (chunk) => (data += chunk));
      req.on('end', () => {
        received.push({ body: JSON.parse(data), authorization: req.headers.authorization });
        reply(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    h = createHarness({
      config: {
        IMPORTD_LLM_URL: `http://127.0.0.1:${port}/v1/chat/completions`,
        IMPORTD_LLM_MODEL: 'test-model',
        IMPORTD_LLM_API_KEY: 'llm-secret',
        IMPORTD_LLM_TIMEOUT_MS: '200',
      },
    });
    env = createTestEnvironment(h);
  });
  beforeEach(() => {
    received = [];
  });
  after(async () => {
    h.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (body: unknown) => call(h, 'POST', PATH, { key: env.secretKey, body });
  const offline = { phone: 'a', email: 'm' };
  const fileKeys = (body: Record<string, { fileKey: string }>) => Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v.fileKey]));

  it("uses the model's valid answer for the unsure pair only, without sample values", async () => {
    reply = chat(JSON.stringify({ mappings: { phone: null } }));
    const response = await post(unsure);
    assert.equal(response.status, 200);
    assert.deepEqual(fileKeys(await json(response)), { email: 'm' });
    assert.equal(received.length, 1);
    const [request] = received;
    assert.equal(request!.authorization, 'Bearer llm-secret');
    assert.equal(request!.body.model, 'test-model');
    const question = request!.body.messages.at(-1).content as string;
    assert.match(question, /Mobile/);
    assert.doesNotMatch(question, /E-Mail-Adresse|170 1234567/);
  });

  it('does not call the model when the offline matcher is sure', async () => {
    reply = chat(JSON.stringify({ mappings: {} }));
    const response = await post(multilingual);
    assert.deepEqual(fileKeys(await json(response)), expected);
    assert.equal(received.length, 0);
  });

  const failures: [string, Reply][] = [
    ['an HTTP 500', (_req, res) => res.writeHead(500).end('{"error":"boom"}')],
    ['a timeout', () => undefined],
    ['a body that is not JSON', (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('<html>')],
    ['content that is not JSON', chat('phone is Mobile, I think')],
    ['an answer of the wrong shape', chat(JSON.stringify({ phone: 'a' }))],
    ['a file key that is not a candidate', chat(JSON.stringify({ mappings: { phone: 'zzz' } }))],
  ];
  for (const [name, failure] of failures) {
    it(`answers 200 with the offline mapping on ${name}`, async () => {
      reply = failure;
      const response = await post(unsure);
      assert.equal(response.status, 200);
      assert.deepEqual(fileKeys(await json(response)), offline);
      assert.equal(received.length, 1);
    });
  }
});
