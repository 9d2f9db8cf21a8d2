import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../../src/http/app';
import { createLogger } from '../../src/core/logger';
import { call, createHarness, json, type Harness } from '../helpers/harness';

describe('GET /embed/importer.js', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(() => h.close());

  it('serves the bundled element without a credential, as JavaScript, revalidated by ETag', async () => {
    const response = await call(h, 'GET', '/embed/importer.js', { origin: 'https://anyone.example.org' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('Content-Type'), 'text/javascript; charset=utf-8');
    assert.equal(response.headers.get('Cache-Control'), 'public, no-cache');
    assert.equal(response.headers.get('Cross-Origin-Resource-Policy'), 'cross-origin');
    assert.match(response.headers.get('ETag') ?? '', /^"[A-Za-z0-9_-]{43}"$/);
    const text = await response.text();
    assert.match(text, /importd-importer/);
    // The CSV worker travels inside the script (started from a Blob URL), so nothing else is fetched.
    assert.match(text, /delimitersToGuess/);
  });

  it('answers 304 to a current If-None-Match and caches a URL with the current ?v= forever', async () => {
    const first = await call(h, 'GET', '/embed/importer.js');
    const etag = first.headers.get('ETag')!;
    const again = await call(h, 'GET', '/embed/importer.js', { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    const version = etag.slice(1, 13);
    const pinned = await call(h, 'GET', `/embed/importer.js?v=${version}`);
    assert.equal(pinned.headers.get('Cache-Control'), 'public, max-age=31536000, immutable');
    const stale = await call(h, 'GET', '/embed/importer.js?v=old');
    assert.equal(stale.headers.get('Cache-Control'), 'public, no-cache');
  });

  it('serves the text it is given (the executable passes its embedded asset)', async () => {
    const app = createApp({ ctx: h.ctx, logger: createLogger('silent', () => undefined), embedSource: { text: 'customElements;' } });
    const response = await app.request('/embed/importer.js');
    assert.equal(await response.text(), 'customElements;');
  });

  it('refuses other methods with 405 and the JSON error shape', async () => {
    const response = await call(h, 'POST', '/embed/importer.js', { body: {} });
    assert.equal(response.status, 405);
    assert.equal((await json(response)).error.code, 'method_not_allowed');
  });
});
