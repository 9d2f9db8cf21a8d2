import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { ServiceContext } from '../../src/services/context';
import { createHarness, type Harness } from '../helpers/harness';
import { ServiceError } from '../../src/services/errors';
import { createLlmAnswerCache, mapHeaders, matchHeaders, resolveWithLlm, type LlmOptions, type MatchResult } from '../../src/services/mapping';

// Offline answer with one confident pair and one the matcher is unsure about.
const input = {
  schemaHeaders: [
    { key: 'email', label: 'Email', samples: ['jane@example.com'] },
    { key: 'contact', label: 'Contact', samples: ['Jane Doe'] },
  ],
  fileHeaders: [
    { key: 'mail', label: 'E-mail', samples: ['john@example.org'] },
    { key: 'c1', label: 'Contact 1', samples: ['Secret Person'] },
    { key: 'c2', label: 'Contact 2', samples: ['Other Person'] },
  ],
};
const offline: MatchResult = {
  mappings: { email: { fileKey: 'mail', confidence: 0.98 }, contact: { fileKey: 'c1', confidence: 0.55 } },
  uncertain: [{ schemaKey: 'contact', chosen: 'c1', candidates: [{ fileKey: 'c1', score: 0.55 }, { fileKey: 'c2', score: 0.53 }] }],
};

type Reply = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let url = '';
let reply: Reply;
let received: { body: any; headers: IncomingMessage['headers'] }[] = [];
const chat = (content: string) => JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] });
const answer = (mappings: Record<string, string | null>): Reply => (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(chat(JSON.stringify({ mappings })));
};

before(async () => {
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      received.push({ body: JSON.parse(data), headers: req.headers });
      reply(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
});
after(() => server.close());
beforeEach(() => {
  received = [];
});

const llm = () => ({ url, model: 'test-model', apiKey: 'sk-test', timeoutMs: 1000 });

describe('resolveWithLlm', () => {
  it('uses a valid answer and asks only about uncertain pairs, in strict JSON mode', async () => {
    reply = answer({ contact: 'c2' });
    const result = await resolveWithLlm(offline, input, llm());
    assert.deepEqual(result, { email: { fileKey: 'mail', confidence: 0.98 }, contact: { fileKey: 'c2', confidence: 0.6 } });
    const { body, headers } = received[0]!;
    assert.equal(headers.authorization, 'Bearer sk-test');
    assert.equal(body.model, 'test-model');
    assert.deepEqual(body.response_format, { type: 'json_object' });
    assert.match(body.messages[0].content, /"mappings"/);
    const question = JSON.parse(body.messages[1].content);
    assert.deepEqual(question.questions.map((q: any) => q.schemaHeader.key), ['contact']);
    assert.deepEqual(question.questions[0].candidates.map((c: any) => c.key), ['c1', 'c2']);
  });

  it('lets the model leave a key unmatched', async () => {
    reply = answer({ contact: null });
    assert.deepEqual(await resolveWithLlm(offline, input, llm()), { email: offline.mappings.email });
  });

  it('never sends sample values unless enabled', async () => {
    reply = answer({ contact: 'c1' });
    await resolveWithLlm(offline, input, llm());
    assert.doesNotMatch(JSON.stringify(received[0]!.body), /Jane Doe|Secret Person/);
    await resolveWithLlm(offline, input, { ...llm(), sendSamples: true });
    assert.match(JSON.stringify(received[1]!.body), /Jane Doe/);
    assert.match(JSON.stringify(received[1]!.body), /Secret Person/);
  });

  const failures: [string, Reply, number?][] = [
    ['a timeout', (_req, res) => setTimeout(() => answer({ contact: 'c2' })(_req, res), 400), 100],
    ['HTTP 500', (_req, res) => res.writeHead(500).end('boom')],
    ['a body that is not JSON', (_req, res) => res.writeHead(200).end('not json')],
    ['content that is not JSON', (_req, res) => res.writeHead(200).end(chat('I think c2'))],
    ['a wrong shape', (_req, res) => res.writeHead(200).end(chat(JSON.stringify({ contact: 'c2' })))],
    ['an unknown schema key', answer({ contact: 'c2', phone: 'c1' })],
    ['a missing schema key', answer({})],
    ['a file key that was not a candidate', answer({ contact: 'mail' })],
    ['an unknown file key', answer({ contact: 'nope' })],
  ];
  for (const [name, failure, timeoutMs] of failures)
    it(`falls back to the offline answer on ${name}`, async () => {
      reply = failure;
      const result = await resolveWithLlm(offline, input, { ...llm(), timeoutMs: timeoutMs ?? 1000 });
      assert.deepEqual(result, offline.mappings);
    });

  // Two unsure schema keys, so a cap can leave room for only one of them.
  const two: MatchResult = {
    mappings: { ...offline.mappings, email: { fileKey: 'mail', confidence: 0.55 } },
    uncertain: [
      { schemaKey: 'email', chosen: 'mail', candidates: [{ fileKey: 'mail', score: 0.55 }] },
      ...offline.uncertain,
    ],
  };
  const bodyBytes = (i: number) => Buffer.byteLength(JSON.stringify(received[i]!.body));

  it('sends only the questions that fit in the prompt cap, and nothing when none fits', async () => {
    reply = answer({ email: 'mail', contact: 'c2' });
    await resolveWithLlm(two, input, llm());
    const full = bodyBytes(0);
    reply = answer({ email: null });
    const capped = await resolveWithLlm(two, input, { ...llm(), maxPromptBytes: full - 10 });
    assert.equal(received.length, 2);
    assert.ok(bodyBytes(1) <= full - 10, `${bodyBytes(1)} bytes sent`);
    assert.deepEqual(JSON.parse(received[1]!.body.messages[1].content).questions.map((q: any) => q.schemaHeader.key), ['email']);
    // The question left out keeps its offline answer.
    assert.deepEqual(capped, { contact: offline.mappings.contact });
    assert.deepEqual(await resolveWithLlm(two, input, { ...llm(), maxPromptBytes: 300 }), two.mappings);
    assert.equal(received.length, 2);
  });

  it('caches valid answers by request, in a bounded LRU, and never a failure', async () => {
    const cache = createLlmAnswerCache(1);
    reply = answer({ contact: 'c2' });
    const first = await resolveWithLlm(offline, input, { ...llm(), cache });
    assert.deepEqual(await resolveWithLlm(offline, input, { ...llm(), cache }), first);
    assert.equal(received.length, 1);
    // Another question evicts the only entry: asking the first again costs a request.
    reply = answer({ email: 'mail', contact: 'c2' });
    await resolveWithLlm(two, input, { ...llm(), cache });
    reply = answer({ contact: 'c2' });
    assert.deepEqual(await resolveWithLlm(offline, input, { ...llm(), cache }), first);
    assert.equal(received.length, 3);
    const empty = createLlmAnswerCache(10);
    reply = (_req, res) => res.writeHead(500).end('boom');
    await resolveWithLlm(offline, input, { ...llm(), cache: empty });
    await resolveWithLlm(offline, input, { ...llm(), cache: empty });
    assert.equal(received.length, 5);
    assert.equal(empty.size, 0);
  });

  it('checks a cached answer again and keeps the offline answer when it clashes with other sure pairs', async () => {
    const cache = createLlmAnswerCache(10);
    reply = answer({ contact: 'c2' });
    await resolveWithLlm(offline, input, { ...llm(), cache });
    // The same question, but here the sure pair already took c2.
    const other: MatchResult = { ...offline, mappings: { ...offline.mappings, email: { fileKey: 'c2', confidence: 0.9 } } };
    assert.deepEqual(await resolveWithLlm(other, input, { ...llm(), cache }), other.mappings);
    assert.equal(received.length, 1);
  });

  it('falls back when the endpoint is unreachable and skips the call when nothing is uncertain', async () => {
    const dead = { ...llm(), url: 'http://127.0.0.1:1/v1/chat/completions' };
    assert.deepEqual(await resolveWithLlm(offline, input, dead), offline.mappings);
    assert.deepEqual(await resolveWithLlm({ ...offline, uncertain: [] }, input, llm()), offline.mappings);
    assert.equal(received.length, 0);
  });
});

describe('mapHeaders', () => {
  // "Phone" vs "Mobile" is a plausible but unsure pair: the offline matcher takes it and flags it.
  const unsure = { schemaHeaders: [{ key: 'phone', label: 'Phone' }], fileHeaders: [{ key: 'a', label: 'Mobile' }, { key: 'b', label: 'Fax' }] };
  // A real context on a temporary database, its LLM setting replaced per test.
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(() => h.close());
  const ctx = (options?: LlmOptions): ServiceContext => ({ ...h.ctx, config: { ...h.ctx.config, llm: options as never } });
  const account = async () => (await h.ctx.store.accounts.list())[0]!.id;

  it('returns the offline mappings without an LLM', async () => {
    assert.deepEqual(await mapHeaders(ctx(), await account(), unsure), matchHeaders(unsure).mappings);
    assert.equal((await mapHeaders(ctx(), await account(), unsure)).phone?.fileKey, 'a');
    assert.equal(received.length, 0);
  });

  it('rejects invalid input with validation_failed at the offending path, before any LLM call', async () => {
    const bad = { schemaHeaders: [{ key: 'a', label: 'A' }, { key: 'a', label: 'B' }], fileHeaders: [{ key: 'x', label: 7 }] };
    await assert.rejects(mapHeaders(ctx(llm()), await account(), bad as never), (error: ServiceError) => {
      assert.equal(error.code, 'validation_failed');
      assert.deepEqual(error.details?.map((d) => d.path).sort(), ['fileHeaders.0.label', 'schemaHeaders.1.key']);
      return true;
    });
    assert.equal(received.length, 0);
  });

  it('lets the LLM overrule an uncertain pair', async () => {
    reply = answer({ phone: null });
    assert.deepEqual(await mapHeaders(ctx(llm()), await account(), unsure), {});
    assert.equal(received.length, 1);
  });
});
