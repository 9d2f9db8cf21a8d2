import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { call, createHarness, createTestEnvironment, json, type Harness, type TestEnvironment } from '../helpers/harness';

// The LLM path end to end: the app's config points IMPORTD_LLM_URL at a fake OpenAI-compatible server.
const PATH = '/v1/intelligence/map-headers';
const item = (key: string, label = key) => ({ key, label });

// "Phone" against "Mobile" is a plausible but unsure pair: the one the LLM is asked about.
const unsure = {
  schemaHeaders: [item('phone', 'Phone'), item('email', 'Email')],
  fileHeaders: [{ ...item('a', 'Mobile'), samples: ['+49 170 1234567'] }, item('b', 'Fax'), item('m', 'E-Mail-Adresse')],
};
// Pairs the offline matcher is sure about.
const sure = {
  schemaHeaders: [item('first_name', 'First name'), item('zip', 'ZIP code')],
  fileHeaders: [item('c0', 'Vorname'), item('c1', 'PLZ'), item('c2', 'Notizen')],
};

describe(`POST ${PATH} with an LLM configured`, () => {
  type Reply = (req: IncomingMessage, res: ServerResponse) => void;
  let server: Server;
  let h: Harness;
  let env: TestEnvironment;
  // A second app on the same fake model, with its answer cache on and a 1 KiB prompt cap.
  let capped: Harness;
  let cappedEnv: TestEnvironment;
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
    const llm = {
      IMPORTD_LLM_URL: `http://127.0.0.1:${port}/v1/chat/completions`,
      IMPORTD_LLM_MODEL: 'test-model',
      IMPORTD_LLM_API_KEY: 'llm-secret',
      // Long enough for the fake model to answer on a loaded machine (1 s was not, at a load of 15-20); the timeout
      // case waits for it once.
      IMPORTD_LLM_TIMEOUT_MS: '4000',
    };
    // No cache here: each test below must reach the fake model.
    h = await createHarness({ config: { ...llm, IMPORTD_LLM_CACHE_ENTRIES: '0' } });
    env = await createTestEnvironment(h);
    capped = await createHarness({ config: { ...llm, IMPORTD_LLM_MAX_PROMPT: '1kb', IMPORTD_LLM_CACHE_ENTRIES: '10' } });
    cappedEnv = await createTestEnvironment(capped);
  });
  beforeEach(() => {
    received = [];
  });
  after(async () => {
    h.close();
    capped.close();
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
    const response = await post(sure);
    assert.deepEqual(fileKeys(await json(response)), { first_name: 'c0', zip: 'c1' });
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

  describe('prompt cap and answer cache', () => {
    const postCapped = (body: unknown) => call(capped, 'POST', PATH, { key: cappedEnv.secretKey, body });
    const described = (chars: number) => ({
      ...unsure,
      schemaHeaders: [{ ...item('phone', 'Phone'), description: `Phone number ${'of the contact person '.repeat(chars / 21)}` }, item('email', 'Email')],
    });

    it('answers a question whose prompt is over IMPORTD_LLM_MAX_PROMPT offline, without calling the model', async () => {
      reply = chat(JSON.stringify({ mappings: { phone: null } }));
      const response = await postCapped(described(900));
      assert.equal(response.status, 200);
      assert.deepEqual(fileKeys(await json(response)), offline);
      assert.equal(received.length, 0);
      const small = await postCapped(described(100));
      assert.deepEqual(fileKeys(await json(small)), { email: 'm' });
      assert.equal(received.length, 1);
      assert.ok(Buffer.byteLength(JSON.stringify(received[0]!.body)) <= 1024);
    });

    it('asks the model once for the same question and reuses its answer', async () => {
      reply = chat(JSON.stringify({ mappings: { phone: null } }));
      const first = await json(await postCapped(unsure));
      reply = chat(JSON.stringify({ mappings: { phone: 'a' } }));
      const again = await json(await postCapped(unsure));
      assert.deepEqual(again, first);
      assert.deepEqual(fileKeys(again), { email: 'm' });
      assert.equal(received.length, 1);
    });
  });
});
