import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createTestEnvironment, createTestSession } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { openSocket, startLiveServer, waitFor } from '../helpers/live-server';
import { documentPropertyNames, listRoutes, type RouteInfo } from '../helpers/routes';

// Bounded so the file finishes well under a minute on 2 cores; a failure prints the seed to replay.
const RANDOM_RUNS = 3000;

const LEAKS = [/SQLITE_[A-Z]/, /SqliteError/, /\bat [\w.<>$]+ \(.*:\d+:\d+\)/, /\.ts:\d+/, /node_modules/];

/** Strings that have broken parsers, validators, URL handling or storage somewhere. */
const NASTY = [
  '', ' ', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '1e400', '-1e400', '-0', '0x10', 'NaN', 'Infinity',
  '-1', '0', '101', '9'.repeat(400), '1.5', 'true', 'null', 'undefined', '[]', '{}', '\u0000', '\uD800', '\uDFFF', '\uDBFF\uDFFF',
  '\uFEFF', '\u202E', 'é', '😀', '%', '%00', '%zz', '../../etc/passwd', '..', '.', "' OR '1'='1", '"; DROP TABLE imports; --',
  'a'.repeat(10_000), '<script>', '\r\n', 'createdAt', 'desc', 'ASC', '2026-02-30T00:00:00Z', '2026-01-31T12:00:00.000Z',
  '01890000-0000-7000-8000-000000000000',
];

const NASTY_BODIES: (string | Uint8Array)[] = [
  '', '{', 'null', '[]', '"x"', '1e400', '-0', 'NaN', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"x":1}}}',
  '{"rows":[{"__proto__":1,"constructor":2}],"meta":{"schemaKey":"k"},"originalSchema":{}}', '['.repeat(50_000) + ']'.repeat(50_000),
  `{"a":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`, '{"rows":"' + 'x'.repeat(100_000) + '"}', '{"a":1,"a":2}', '\uFEFF{}',
  new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x80, 0x22, 0x7d]), new Uint8Array([0xed, 0xa0, 0x80]),
  '{"rows":[],"meta":{"schemaKey":"\\ud800"},"originalSchema":{}}', '{"name":"\\u0000","allowedOrigins":["https://\\u0000.com"]}',
];

const CONTENT_TYPES = [
  undefined, 'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=utf-16',
  'application/json, text/plain', 'application/x-ndjson', 'text/plain', 'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded', 'application/vnd.api+json', '', ';', 'application/',
];

type Credential = 'secret' | 'public' | 'none';

/** Percent-encodes a path segment; a lone surrogate becomes the invalid UTF-8 bytes a raw client would send. */
function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return `${encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, ''))}%ED%A0%80%FF`;
  }
}

interface Case {
  route: RouteInfo;
  credential: Credential;
  param: string;
  query: [string, string][];
  body: string | Uint8Array | undefined;
  contentType: string | undefined;
  extraHeaders: [string, string][];
}

describe('fuzzing every route', () => {
  const { h, env } = useHarness({ config: { IMPORTD_RATE_LIMIT: '0', IMPORTD_MAX_BODY: '256kb' } });
  let token: string;
  let routes: RouteInfo[];
  let keys: string[];
  let sent = 0;
  before(async () => {
    await createTestEnvironment(h, { account: 'other-co' });
    token = (await createTestSession(h, env)).sessionToken;
    routes = await listRoutes(h);
    keys = await documentPropertyNames(h);
  });

  async function send(c: Case): Promise<void> {
    const headers = new Headers();
    if (c.credential === 'secret') headers.set('Authorization', `Bearer ${env.secretKey}`);
    if (c.credential === 'public') {
      headers.set('Authorization', `Bearer ${env.publicKey}`);
      headers.set('Origin', env.origin);
      headers.set('X-Session-Token', token);
    }
    if (c.contentType !== undefined) headers.append('Content-Type', c.contentType);
    for (const [name, value] of c.extraHeaders) headers.append(name, value);
    const search = new URLSearchParams(c.query).toString();
    const url = c.route.path.replace(/:[A-Za-z0-9_]+/g, () => encodeSegment(c.param)) + (search ? `?${search}` : '');
    const withBody = c.body !== undefined && c.route.method !== 'GET' && c.route.method !== 'HEAD';
    const response = await h.app.request(url, { method: c.route.method, headers, ...(withBody && { body: c.body }) });
    sent++;
    const text = await response.text();
    const what = `${c.route.method} ${url} (${c.credential}, ${c.contentType}) -> ${response.status} ${text.slice(0, 300)}`;
    assert.ok(response.status < 500, what);
    for (const leak of LEAKS) assert.doesNotMatch(text, leak, what);
    if (response.status >= 400) {
      assert.match(response.headers.get('Content-Type') ?? '', /^application\/json/, what);
      const body = JSON.parse(text) as { error: { code: string; message: string; requestId: string } };
      assert.deepEqual(Object.keys(body), ['error'], what);
      assert.equal(typeof body.error.code, 'string', what);
      assert.equal(typeof body.error.message, 'string', what);
      assert.match(body.error.requestId, /^req_/, what);
    }
  }

  it('answers every route with every nasty value in path, query and body, under each credential', async () => {
    for (const route of routes) {
      for (const credential of ['secret', 'public', 'none'] as const) {
        for (const [i, value] of NASTY.entries()) {
          const body = NASTY_BODIES[i % NASTY_BODIES.length];
          await send({
            route,
            credential,
            param: value,
            query: [...route.queryParams, 'limit', 'cursor'].map((name) => [name, value]),
            body: i % 3 === 0 ? JSON.stringify(Object.fromEntries(keys.map((key) => [key, value]))) : body,
            contentType: CONTENT_TYPES[i % CONTENT_TYPES.length],
            extraHeaders: [],
          });
        }
      }
    }
  });

  it('answers generated requests without a 5xx, a leak or another error shape', async () => {
    const text = fc.oneof(fc.constantFrom(...NASTY), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ maxLength: 8 }));
    const value = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        text,
        fc.double(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.oneof(fc.constantFrom(...keys, '__proto__', 'constructor'), text), tie('value'), { maxKeys: 5 }),
      ),
    })).value;
    const body = fc.oneof(
      fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 8 }).map((o) => JSON.stringify(o)),
      value.map((v) => JSON.stringify(v) ?? ''),
      fc.constantFrom(...NASTY_BODIES),
      fc.uint8Array({ maxLength: 64 }),
      fc.constant(undefined),
    );
    const headerText = fc.string({ unit: 'binary-ascii', maxLength: 30 }).map((s) => s.replace(/[\r\n\0]/g, ''));
    const caseArb = fc.record({
      route: fc.constantFrom(...routes),
      credential: fc.constantFrom<Credential>('secret', 'public', 'none'),
      param: text,
      query: fc.array(fc.tuple(fc.oneof(fc.constantFrom('limit', 'cursor', 'orderBy', 'direction', 'sortBy', 'format', 'templateId', 'startDate', 'endDate', 'userEmail', 'environment', 'safe'), text), text), { maxLength: 6 }),
      body,
      contentType: fc.constantFrom(...CONTENT_TYPES),
      extraHeaders: fc.array(fc.tuple(fc.constantFrom('X-Session-Token', 'If-None-Match', 'Origin', 'X-Public-Key', 'Accept', 'Content-Encoding'), headerText), { maxLength: 3 }),
    });
    await fc.assert(fc.asyncProperty(caseArb, (c) => send(c)), { numRuns: RANDOM_RUNS });
  });

  it('answers requests no HTTP client library would send, on a real socket', async () => {
    const server = await startLiveServer(h);
    try {
      const auth = `Authorization: Bearer ${env.secretKey}\r\n`;
      const raw: (string | Buffer)[] = [
        `POST /v1/templates HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}`,
        Buffer.concat([Buffer.from(`POST /v1/templates HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 14\r\n\r\n`), Buffer.from([0x7b, 0x22, 0x73, 0x63, 0x68, 0x65, 0x6d, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])]),
        Buffer.concat([Buffer.from('GET /v1/imports/'), Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80]), Buffer.from(` HTTP/1.1\r\nHost: x\r\n${auth}\r\n`)]),
        Buffer.concat([Buffer.from(`GET /v1/imports HTTP/1.1\r\nHost: x\r\n${auth}X-Session-Token: `), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('\r\n\r\n')]),
        `GET /v1/imports?limit=1&limit=2&cursor=%ZZ&__proto__[x]=1 HTTP/1.1\r\nHost: x\r\n${auth}\r\n`,
        `DELETE /v1/imports/%00%2e%2e%2f HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 0\r\n\r\n`,
        `POST /v1/sessions HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"end\r\n0\r\n\r\n`,
      ];
      for (const request of raw) {
        const socket = await openSocket(server.port);
        let closed = false;
        void socket.ended.then(() => (closed = true));
        // Half-closing before the answer would make Node's server drop a request still being answered
        // (any that waits on the database): the client keeps its side open until the answer is whole.
        socket.write(request);
        await waitFor(() => closed || answerComplete(socket.received()), 10_000);
        socket.end();
        await socket.ended;
        const answer = socket.received();
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
        assert.ok(status >= 200 && status < 500, `${String(request).slice(0, 80)} -> ${answer.slice(0, 200)}`);
        for (const leak of LEAKS) assert.doesNotMatch(answer, leak);
        // Every refusal carries a request id and the JSON error shape: the app's, node-server's (app-listener.ts)
        // and Node's parser's (client-error.ts).
        if (status >= 400) {
          assert.match(answer, /\r\nx-request-id: req_/i);
          assert.match(answer, /\r\n\r\n\{"error":\{"code":"[a-z_]+","message":/);
        }
      }
    } finally {
      await server.close();
    }
  });

  it('leaves the database intact', async () => {
    assert.ok(sent > RANDOM_RUNS + routes.length * NASTY.length * 3 - 1, `${sent} requests sent`);
    if (h.engine === 'sqlite') {
      assert.equal(h.storage.sqlite.pragma('integrity_check', { simple: true }), 'ok');
      assert.deepEqual(h.storage.sqlite.pragma('foreign_key_check'), []);
    }
    // PostgreSQL enforces every foreign key at each statement: no orphan can exist; every table still reads.
    for (const table of ['accounts', 'environments', 'api_keys', 'templates', 'imports', 'import_rows', 'sessions', 'themes', 'settings']) {
      assert.equal((await h.sql(`SELECT count(*) AS n FROM ${table}`)).length, 1);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype was polluted');
  });
});

/** True once `received` holds a whole HTTP response: its head, and its body by Content-Length or chunked end. */
function answerComplete(received: string): boolean {
  const headEnd = received.indexOf('\r\n\r\n');
  if (headEnd === -1) return false;
  const head = received.slice(0, headEnd);
  const body = received.slice(headEnd + 4);
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  if (length) return body.length >= Number(length[1]);
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) return body.endsWith('0\r\n\r\n');
  return true;
}
