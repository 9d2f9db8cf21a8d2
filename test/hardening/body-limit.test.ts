import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { Hono } from 'hono';
import type { AppEnv } from '../../src/http/env';
import { bodyLimit } from '../../src/http/middleware/body-limit';
import { json, type Harness, type TestEnvironment } from '../helpers/harness';
import { useHarness, useLiveHarness } from '../helpers/use-harness';
import { openSocket, waitFor } from '../helpers/live-server';
import { LINGER_MS } from '../../src/http/linger';

const MAX = 4096;

/** A request body that records how many bytes the server pulled from it. */
function meteredBody(total: number, chunkSize = 512, fill = 0x20) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= total) return controller.close();
      const size = Math.min(chunkSize, total - pulled);
      pulled += size;
      controller.enqueue(new Uint8Array(size).fill(fill));
    },
  }, { highWaterMark: 0 });
  return { stream, pulled: () => pulled };
}

function send(h: Harness, env: TestEnvironment, body: ReadableStream<Uint8Array>, headers: Record<string, string>) {
  return h.app.request('/v1/environments', {
    method: 'POST',
    headers: { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
}

describe('request body limit (in process)', () => {
  const { h, env } = useHarness({ config: { IMPORTD_MAX_JSON_BODY: String(MAX) } });

  it('refuses a declared Content-Length over the limit without reading a byte of the body', async () => {
    const body = meteredBody(10 * MAX);
    const response = await send(h, env, body.stream, { 'Content-Length': String(10 * MAX) });
    assert.equal(response.status, 413);
    assert.equal((await json(response)).error.code, 'payload_too_large');
    assert.equal(body.pulled(), 0);
  });

  it('stops reading a chunked body as soon as it passes the limit', async () => {
    const body = meteredBody(1024 * 1024);
    const response = await send(h, env, body.stream, { 'Transfer-Encoding': 'chunked' });
    assert.equal(response.status, 413);
    const error = (await json(response)).error;
    assert.equal(error.code, 'payload_too_large');
    assert.match(error.requestId, /^req_/);
    // The stream is pulled a little ahead of the reader, never to the end.
    assert.ok(body.pulled() <= MAX + 4 * 512, `pulled ${body.pulled()} bytes`);
  });

  it('accepts a chunked body under the limit', async () => {
    const text = JSON.stringify({ name: 'chunked', allowedOrigins: [] });
    const bytes = new TextEncoder().encode(text);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    const response = await send(h, env, stream, { 'Transfer-Encoding': 'chunked' });
    assert.equal(response.status, 201);
    assert.equal((await json(response)).name, 'chunked');
  });

  it('accepts a body of exactly the limit (the limit is inclusive)', async () => {
    const text = JSON.stringify({ name: 'exact', allowedOrigins: [] });
    const padded = text + ' '.repeat(MAX - text.length);
    const response = await h.app.request('/v1/environments', {
      method: 'POST',
      headers: { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': 'application/json', 'Content-Length': String(MAX) },
      body: padded,
    });
    assert.equal(response.status, 201);
  });
});

describe('body limit middleware', () => {
  it('hands a chunked body to the handler as a stream, not buffered first', async () => {
    const body = meteredBody(3 * 1024, 256);
    const app = new Hono<AppEnv>().use(bodyLimit(MAX, 'IMPORTD_MAX_BODY')).post('/', async (c) => {
      const reader = c.req.raw.body!.getReader();
      await reader.read();
      const pulledAtFirstChunk = body.pulled();
      while (!(await reader.read()).done);
      return c.json({ pulledAtFirstChunk, total: body.pulled() });
    });
    const response = await app.request('/', {
      method: 'POST',
      headers: { 'Transfer-Encoding': 'chunked', 'Content-Type': 'application/octet-stream' },
      body: body.stream,
      duplex: 'half',
    } as RequestInit);
    const result = await json(response);
    assert.equal(result.total, 3 * 1024);
    assert.ok(result.pulledAtFirstChunk <= 3 * 256, `pulled ${result.pulledAtFirstChunk} bytes before the first read`);
  });
});

describe('request body limit (real server)', () => {
  const { env, server } = useLiveHarness({ config: { IMPORTD_MAX_JSON_BODY: String(MAX) } });

  it('answers 413 to a 1 GB Content-Length before the client sends any body', async () => {
    const socket = await openSocket(server.port);
    socket.write(
      `POST /v1/environments HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${env.secretKey}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n',
    );
    await waitFor(() => socket.received().includes('\r\n\r\n{'));
    assert.match(socket.received(), /^HTTP\/1\.1 413 /);
    assert.match(socket.received(), /"code":"payload_too_large"/);
    socket.destroy();
  });

  it('answers 413 to a chunked body while it is still being sent', async () => {
    const socket = await openSocket(server.port);
    socket.write(
      `POST /v1/environments HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${env.secretKey}\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    let sent = 0;
    const chunk = `400\r\n${' '.repeat(1024)}\r\n`;
    while (!socket.received().includes('HTTP/1.1') && sent < 1024 * 1024) {
      socket.write(chunk);
      sent += 1024;
      await sleep(2);
    }
    assert.match(socket.received(), /^HTTP\/1\.1 413 /);
    assert.ok(sent < 256 * 1024, `the server answered only after ${sent} bytes`);
    socket.destroy();
  });

  it('reads and drops the rest of a refused body before closing, so a client still sending it is not reset', async () => {
    const socket = await openSocket(server.port);
    const errors: Error[] = [];
    socket.on('error', (error) => errors.push(error));
    // A client that does not read while it sends: the answer (given on the head alone) waits unread while the
    // body follows; a socket closed at once would reset the connection under it.
    socket.pause();
    socket.write(
      `POST /v1/environments HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${env.secretKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${16 * MAX}\r\n\r\n`,
    );
    await sleep(100);
    for (let i = 0; i < 16; i++) {
      socket.write(' '.repeat(MAX));
      await sleep(10);
    }
    socket.resume();
    await socket.ended;
    assert.deepEqual(errors, []);
    assert.match(socket.received(), /^HTTP\/1\.1 413 /);
    assert.match(socket.received(), /\r\nConnection: close\r\n/i);
  });

  it('stops reading a refused body after LINGER_MS: a client that keeps sending is cut off', async () => {
    // allowHalfOpen: the client goes on sending after the server's end, as a client that ignores the answer would.
    const socket = connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true });
    await once(socket, 'connect');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    let closed = false;
    socket.once('close', () => (closed = true));
    socket.write(
      `POST /v1/environments HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${env.secretKey}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n',
    );
    const started = Date.now();
    while (!closed && Date.now() - started < 5 * LINGER_MS) {
      socket.write(' '.repeat(1024));
      await sleep(20);
    }
    const elapsed = Date.now() - started;
    assert.ok(closed, `the connection was still open after ${elapsed} ms`);
    assert.ok(elapsed >= LINGER_MS - 50, `closed after ${elapsed} ms`);
    assert.match(received, /^HTTP\/1\.1 413 /);
  });

  it('keeps serving after refusing bodies', async () => {
    const response = await fetch(`${server.url}/v1/environments`, { headers: { Authorization: `Bearer ${env.secretKey}` } });
    assert.equal(response.status, 200);
  });
});
