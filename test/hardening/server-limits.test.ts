import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_HEADER_BYTES } from '../../src/http/server';
import { createHarness, createTestEnvironment, type Harness } from '../helpers/harness';
import { openSocket, startLiveServer, type LiveServer } from '../helpers/live-server';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Node's own answers come in the API's error shape: status line, X-Request-Id, JSON body with the code. */
function assertJsonAnswer(raw: string, status: number, code: string): void {
  assert.match(raw, new RegExp(`^HTTP/1\\.1 ${status} `));
  const [head, body] = raw.split('\r\n\r\n');
  assert.match(head!, /\r\nContent-Type: application\/json\r\n/i);
  const requestId = /\r\nX-Request-Id: (req_\S+)/i.exec(head!)?.[1];
  assert.ok(requestId, 'no X-Request-Id');
  assert.deepEqual(JSON.parse(body!), { error: { code, message: JSON.parse(body!).error.message, requestId } });
}

describe('server limits on a real socket', () => {
  let h: Harness;
  let server: LiveServer;
  before(async () => {
    // A 1 s request timeout (headers timeout follows it) keeps the slow-client test short.
    h = await createHarness({ config: { IMPORTD_REQUEST_TIMEOUT_SECONDS: '1' } });
    server = await startLiveServer(h);
  });
  after(async () => {
    await server.close();
    h.close();
  });

  it('answers 431 to a request head over the header limit and keeps serving', async () => {
    const socket = await openSocket(server.port);
    socket.write(`GET /healthz HTTP/1.1\r\nHost: test\r\nX-Big: ${'a'.repeat(MAX_HEADER_BYTES + 1024)}\r\n\r\n`);
    await socket.ended;
    assertJsonAnswer(socket.received(), 431, 'headers_too_large');
    const response = await fetch(`${server.url}/healthz`);
    assert.equal(response.status, 200);
  });

  it('serves a request whose head is just under the limit', async () => {
    const response = await fetch(`${server.url}/healthz`, { headers: { 'X-Big': 'a'.repeat(MAX_HEADER_BYTES - 1024) } });
    assert.equal(response.status, 200);
  });

  it('cuts off a client that sends its headers byte by byte, while serving others', async () => {
    const slow = await openSocket(server.port);
    let cutOff = false;
    void slow.ended.then(() => {
      cutOff = true;
    });
    const started = Date.now();
    const head = `GET /healthz HTTP/1.1\r\nHost: test\r\nX-Slow: ${'b'.repeat(200)}`;
    const writer = (async () => {
      for (const byte of head) {
        if (cutOff) return;
        slow.write(byte);
        await sleep(50);
      }
    })();
    let served = 0;
    while (!cutOff && Date.now() - started < 8_000) {
      const response = await fetch(`${server.url}/healthz`);
      assert.equal(response.status, 200);
      served++;
      await sleep(100);
    }
    await writer;
    const elapsed = Date.now() - started;
    assert.ok(cutOff, 'the slow client was never cut off');
    // headersTimeout = 1 s, checked every second: cut off within about 2 s, long before its head was complete.
    assert.ok(elapsed < 4_000, `cut off after ${elapsed} ms`);
    assertJsonAnswer(slow.received(), 408, 'request_timeout');
    assert.ok(served >= 3, `only ${served} other requests were served meanwhile`);
  });

  it('cuts off a client that sends its body too slowly (request timeout)', async () => {
    const env = await createTestEnvironment(h);
    const slow = await openSocket(server.port);
    slow.write(
      `POST /v1/environments HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${env.secretKey}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
    );
    const started = Date.now();
    const writer = setInterval(() => slow.write(' '), 100);
    await slow.ended;
    clearInterval(writer);
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 900 && elapsed < 4_000, `cut off after ${elapsed} ms`);
    assert.match(slow.received(), /^HTTP\/1\.1 408 /);
  });

  it('answers a malformed request line with 400 in the JSON error shape and keeps serving', async () => {
    for (const head of ['GARBAGE\r\n\r\n', 'GET /healthz HTTP/9.9.9\r\n\r\n', 'GET / HTTP/1.1\r\nBad Header\r\n\r\n']) {
      const socket = await openSocket(server.port);
      socket.write(head);
      await socket.ended;
      assertJsonAnswer(socket.received(), 400, 'validation_failed');
    }
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
  });
});
