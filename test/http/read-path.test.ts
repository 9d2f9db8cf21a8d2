import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { call, createHarness, createTestEnvironment, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { createImportOk } from '../imports/helpers';

// The read routes skip layers a GET does not need (the zod-openapi path validator, the body checks, the
// request log above info): what those layers answered must not change.
describe('read path: what the skipped layers answered', () => {
  const { h, env } = useHarness();
  let importId: string;
  before(async () => {
    importId = (await createImportOk(h, env, { rows: [{ a: 1 }] })).id;
  });

  for (const suffix of ['', '/rows']) {
    it(`GET /v1/imports/{id}${suffix}: an id over 100 characters is validation_failed on importId`, async () => {
      const response = await call(h, 'GET', `/v1/imports/${'x'.repeat(101)}${suffix}`, { key: env.secretKey });
      assert.equal(response.status, 400);
      const { error } = await json(response);
      assert.equal(error.code, 'validation_failed');
      assert.deepEqual(error.details.map((detail: { path: string }) => detail.path), ['importId']);
    });

    it(`GET /v1/imports/{id}${suffix}: an unknown id of 100 characters is not_found, the key checked first`, async () => {
      const unknown = await call(h, 'GET', `/v1/imports/${'x'.repeat(100)}${suffix}`, { key: env.secretKey });
      assert.equal(unknown.status, 404);
      assert.equal((await json(unknown)).error.code, 'not_found');
      const noKey = await call(h, 'GET', `/v1/imports/${'x'.repeat(101)}${suffix}`);
      assert.equal(noKey.status, 401);
    });
  }

  it('every answer carries the common headers: a read, a refused key, an unknown path; none exposes headers without a CORS allowance', async () => {
    const answers = [
      await call(h, 'GET', `/v1/imports/${importId}`, { key: env.secretKey }),
      await call(h, 'GET', `/v1/imports/${importId}/rows`, { key: env.secretKey }),
      await call(h, 'GET', `/v1/imports/${importId}`, { key: 'sk_unknown0000000000000000' }),
      await call(h, 'GET', '/v1/nothing-here', { key: env.secretKey }),
    ];
    assert.deepEqual(answers.map((response) => response.status), [200, 200, 401, 404]);
    for (const response of answers) {
      assert.match(response.headers.get('X-Request-Id') ?? '', /^req_/);
      assert.equal(response.headers.get('X-Content-Type-Options'), 'nosniff');
      assert.equal(response.headers.get('Cache-Control'), 'no-store');
      assert.equal(response.headers.get('Access-Control-Expose-Headers'), null);
    }
  });

  it('logs one line per request at level info, none above it', async () => {
    const logged = (logs: string[]) => logs.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
    const before = logged(h.logs).length;
    await call(h, 'GET', `/v1/imports/${importId}`, { key: env.secretKey });
    const lines = logged(h.logs).slice(before);
    assert.equal(lines.length, 1);
    assert.equal(lines[0].status, 200);
    assert.equal(lines[0].path, `/v1/imports/${importId}`);

    const quiet = await createHarness({ config: { IMPORTD_LOG_LEVEL: 'warn' } });
    try {
      const quietEnv = await createTestEnvironment(quiet);
      assert.equal((await call(quiet, 'GET', '/v1/imports', { key: quietEnv.secretKey })).status, 200);
      assert.deepEqual(logged(quiet.logs), []);
    } finally {
      quiet.close();
    }
  });
});
