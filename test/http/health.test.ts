import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, createHarness, json, type Harness } from '../helpers/harness';

describe('health and documents', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(() => h.close());

  it('answers /healthz and /readyz without credentials', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const response = await call(h, 'GET', path);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('X-Request-Id') ?? '', /^req_/);
    }
  });

  it('serves the OpenAPI document with every /v1 route', async () => {
    const response = await call(h, 'GET', '/v1/openapi.json');
    assert.equal(response.status, 200);
    const doc = await json(response);
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.paths['/v1/environments'].post);
    assert.ok(doc.paths['/v1/environments/{name}/origins'].patch);
    assert.ok(doc.paths['/v1/sessions'].post);
  });
});
