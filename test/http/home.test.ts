import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VERSION } from '../../src/version';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

// GET / used to answer a JSON 404: a person who opens the server in a browser gets pointers instead (issue 41).
describe('GET /', () => {
  const { h } = useHarness();

  it('answers a small page pointing to the API reference, the docs and the importer demo', async () => {
    for (const accept of [undefined, 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', '*/*', 'text/html, application/json']) {
      const response = await call(h, 'GET', '/', { headers: accept === undefined ? {} : { Accept: accept } });
      assert.equal(response.status, 200, String(accept));
      assert.equal(response.headers.get('Content-Type'), 'text/html; charset=utf-8');
      assert.match(response.headers.get('X-Request-Id') ?? '', /^req_/, 'through the app and its middleware');
      assert.match(response.headers.get('Vary') ?? '', /Accept/);
      assert.match(response.headers.get('Content-Security-Policy') ?? '', /default-src 'none'/);
      const page = await response.text();
      assert.match(page, /<a href="\/v1\/openapi\.json">/);
      assert.match(page, /<a href="\/embed\/importer\.js">/);
      assert.match(page, /importd embed demo --env NAME --template KEY/);
      assert.match(page, /docs\/api\.md/);
      assert.match(page, new RegExp(`importd ${VERSION.replace(/\./g, '\\.')}`));
    }
  });

  it('answers JSON to a client that asks for it', async () => {
    const response = await call(h, 'GET', '/', { headers: { Accept: 'application/json' } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('Content-Type') ?? '', /^application\/json/);
    const body = await json(response);
    assert.equal(body.openapi, '/v1/openapi.json');
    assert.equal(body.importer, '/embed/importer.js');
    assert.equal(body.version, VERSION);
    assert.match(body.demo, /^importd embed demo/);
    // Where it points is served.
    assert.equal((await call(h, 'GET', body.openapi)).status, 200);
    assert.equal((await call(h, 'GET', body.health)).status, 200);
  });

  it('keeps the error model for other methods and paths', async () => {
    const post = await call(h, 'POST', '/', { body: {} });
    assert.equal(post.status, 405);
    assert.equal((await json(post)).error.code, 'method_not_allowed');
    const missing = await call(h, 'GET', '/index.html');
    assert.equal(missing.status, 404);
    assert.equal((await json(missing)).error.code, 'not_found');
  });
});
