import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config/config';
import { call, createHarness, createTestEnvironment, json, type Harness } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

const MiB = 1024 ** 2;

/** A JSON body of `total` bytes (an object padded with spaces) that records how many bytes were pulled. */
function meteredJson(total: number, chunkSize = 64 * 1024) {
  const head = new TextEncoder().encode('{"name":"padded"}');
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= total) return controller.close();
      const size = Math.min(chunkSize, total - pulled);
      const chunk = new Uint8Array(size).fill(0x20);
      if (pulled === 0) chunk.set(head.subarray(0, size));
      pulled += size;
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
  return { stream, pulled: () => pulled };
}

function post(h: Harness, path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string>) {
  return h.app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body, duplex: 'half' } as RequestInit);
}

describe('IMPORTD_MAX_JSON_BODY: the body limit of every route but POST /v1/imports', () => {
  const { h, env } = useHarness({ config: { IMPORTD_RATE_LIMIT: '0' } });

  it('is 4 MiB by default, raised with the schema cap so a template at that cap still fits, and settable', () => {
    assert.equal(loadConfig({}).maxJsonBodyBytes, 4 * MiB);
    assert.equal(loadConfig({ IMPORTD_MAX_SCHEMA_BYTES: '4mb' }).maxJsonBodyBytes, 12 * MiB + 128 * 1024);
    assert.equal(loadConfig({ IMPORTD_MAX_JSON_BODY: '256kb', IMPORTD_MAX_SCHEMA_BYTES: '4mb' }).maxJsonBodyBytes, 256 * 1024);
    assert.throws(() => loadConfig({ IMPORTD_MAX_JSON_BODY: 'big' }), /IMPORTD_MAX_JSON_BODY/);
  });

  it('refuses a declared 60 MB template body with 413 before reading a byte of it', async () => {
    const body = meteredJson(60 * 1000 ** 2);
    const response = await post(h, '/v1/templates', body.stream, { Authorization: `Bearer ${env.secretKey}`, 'Content-Length': String(60 * 1000 ** 2) });
    assert.equal(response.status, 413);
    const error = (await json(response)).error;
    assert.equal(error.code, 'payload_too_large');
    assert.match(error.message, /IMPORTD_MAX_JSON_BODY/);
    assert.equal(body.pulled(), 0);
  });

  it('stops reading a chunked map-headers body from the Public Key past 4 MiB, and the page can read the 413', async () => {
    const body = meteredJson(60 * 1000 ** 2);
    const response = await post(h, '/v1/intelligence/map-headers', body.stream, {
      'X-Public-Key': env.publicKey,
      Origin: env.origin,
      'Transfer-Encoding': 'chunked',
    });
    assert.equal(response.status, 413);
    assert.equal((await json(response)).error.code, 'payload_too_large');
    assert.equal(response.headers.get('Access-Control-Allow-Origin'), env.origin);
    assert.ok(body.pulled() <= 4 * MiB + 4 * 64 * 1024, `pulled ${body.pulled()} bytes`);
  });

  it('bounds themes, sessions and environments too', async () => {
    for (const path of ['/v1/themes', '/v1/sessions', '/v1/environments']) {
      const size = 4 * MiB + 1;
      const body = meteredJson(size);
      const response = await post(h, path, body.stream, { Authorization: `Bearer ${env.secretKey}`, 'Content-Length': String(size) });
      assert.equal(response.status, 413, path);
      assert.equal(body.pulled(), 0, path);
    }
  });

  it('still accepts a template whose schema is just under the 1 MiB schema cap, sent with every non-ASCII character escaped', async () => {
    const label = 'é'.repeat(200);
    const fields = Array.from({ length: 1_900 }, (_, i) => ({ key: `field_${i}`, label }));
    const schema = { key: 'wide', fields };
    assert.ok(JSON.stringify(schema).length < 1024 ** 2 / 2 && Buffer.byteLength(JSON.stringify(schema)) < 1024 ** 2);
    const escaped = JSON.stringify({ key: 'wide', name: 'Wide', schema }).replace(/é/g, '\\u00e9');
    assert.ok(escaped.length > 2 * MiB, `${escaped.length} bytes`);
    const response = await call(h, 'POST', '/v1/templates', { key: env.secretKey, rawBody: escaped });
    assert.equal(response.status, 201, JSON.stringify(await response.clone().json()));
  });

  it('leaves JSON imports to IMPORTD_MAX_BODY', async () => {
    const small = await createHarness({ config: { IMPORTD_MAX_JSON_BODY: '8kb' } });
    try {
      const e = await createTestEnvironment(small);
      const rows = Array.from({ length: 100 }, (_, i) => ({ email: `person${i}@example.com`, note: 'x'.repeat(200) }));
      const created = await call(small, 'POST', '/v1/imports', { key: e.secretKey, body: { meta: { schemaKey: 'contacts' }, rows } });
      assert.equal(created.status, 201);
      const theme = await call(small, 'POST', '/v1/themes', { key: e.secretKey, body: { name: 'x'.repeat(9 * 1024) } });
      assert.equal(theme.status, 413);
      assert.match((await json(theme)).error.message, /8192 bytes \(IMPORTD_MAX_JSON_BODY\)/);
    } finally {
      small.close();
    }
  });
});
