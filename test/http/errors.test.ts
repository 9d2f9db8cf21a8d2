import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger } from '../../src/core/logger';
import { createApp } from '../../src/http/app';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

const { h, env } = useHarness({ config: { IMPORTD_MAX_JSON_BODY: '2kb' } });

const expectShape = async (response: Response, status: number, code: string) => {
  assert.equal(response.status, status);
  assert.match(response.headers.get('Content-Type') ?? '', /application\/json/);
  const requestId = response.headers.get('X-Request-Id');
  assert.match(requestId ?? '', /^req_/);
  const body = await json(response);
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  assert.equal(body.error.requestId, requestId);
  return body.error;
};

describe('error model', () => {
  it('answers unknown routes with 404 not_found', async () => {
    await expectShape(await call(h, 'GET', '/v1/nothing-here'), 404, 'not_found');
    await expectShape(await call(h, 'GET', '/nothing-here'), 404, 'not_found');
  });

  it('answers a served path with a trailing slash with 404, as the router does for every method (not 405)', async () => {
    for (const method of ['GET', 'DELETE', 'POST']) {
      await expectShape(await call(h, method, '/v1/environments/', { key: env.secretKey }), 404, 'not_found');
      await expectShape(await call(h, method, '/v1/imports/00000000-0000-7000-8000-000000000000/', { key: env.secretKey }), 404, 'not_found');
    }
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const response = await call(h, 'DELETE', '/v1/environments', { key: env.secretKey });
    assert.match(response.headers.get('Allow') ?? '', /GET/);
    await expectShape(response, 405, 'method_not_allowed');
    await expectShape(await call(h, 'PUT', '/v1/environments/production/origins'), 405, 'method_not_allowed');
  });

  it('answers bad JSON with 400 invalid_json', async () => {
    for (const rawBody of ['{', '{"name": }', 'null x', '']) {
      await expectShape(await call(h, 'POST', '/v1/environments', { key: env.secretKey, rawBody }), 400, rawBody === '' ? 'invalid_json' : 'invalid_json');
    }
  });

  it('answers a non-JSON content type with 415 unsupported_media_type', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      await expectShape(await call(h, 'POST', '/v1/environments', { key: env.secretKey, rawBody: '{}', contentType }), 415, 'unsupported_media_type');
    }
  });

  it('answers a body over the limit with 413 payload_too_large', async () => {
    const body = { name: 'big', allowedOrigins: [], padding: 'x'.repeat(4096) };
    await expectShape(await call(h, 'POST', '/v1/environments', { key: env.secretKey, body }), 413, 'payload_too_large');
  });

  it('answers an internal failure with 500 internal_error, no internals in the body, the stack in the log', async () => {
    const logs: string[] = [];
    const app = createApp({ ctx: h.ctx, logger: createLogger('info', (line) => logs.push(line)) });
    app.get('/v1/boom', () => {
      throw new Error('SQLITE_CORRUPT: secret internals at /src/db/x.ts:1');
    });
    const response = await app.request('/v1/boom');
    const error = await expectShape(response, 500, 'internal_error');
    assert.ok(!JSON.stringify(error).includes('SQLITE'));
    assert.ok(logs.some((line) => line.includes('SQLITE_CORRUPT') && line.includes(error.requestId)));
  });

  it('sets security headers on every response', async () => {
    for (const response of [await call(h, 'GET', '/healthz'), await call(h, 'GET', '/v1/nope')]) {
      assert.equal(response.headers.get('X-Content-Type-Options'), 'nosniff');
      assert.equal(response.headers.get('Cache-Control'), 'no-store');
    }
  });
});
