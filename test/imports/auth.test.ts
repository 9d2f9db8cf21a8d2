import { after, before, describe } from 'node:test';
import { authFailureSuite } from '../helpers/auth-suite';
import { createHarness, createTestEnvironment, type Harness, type TestEnvironment } from '../helpers/harness';
import { createImportOk } from './helpers';

describe('imports routes', () => {
  let h: Harness;
  let env: TestEnvironment;
  let other: TestEnvironment;
  let importId: string;
  before(async () => {
    h = await createHarness();
    env = await createTestEnvironment(h);
    other = await createTestEnvironment(h, { account: 'other' });
    importId = (await createImportOk(h, env, { rows: [{ a: 1 }] })).id;
  });
  after(() => h.close());

  const common = { harness: () => h, env: () => env, other: () => other };
  authFailureSuite({
    ...common,
    name: 'POST /v1/imports',
    method: 'POST',
    path: () => '/v1/imports',
    credential: 'secret-or-session',
    body: () => ({ rows: [{ a: 1 }], meta: { schemaKey: 'contacts' } }),
  });
  for (const suffix of ['', '/rows', '/export']) {
    authFailureSuite({
      ...common,
      name: `GET /v1/imports/{id}${suffix}`,
      method: 'GET',
      path: () => `/v1/imports/${importId}${suffix}`,
      credential: 'secret',
    });
  }
  authFailureSuite({ ...common, name: 'GET /v1/imports', method: 'GET', path: () => '/v1/imports', credential: 'secret' });
});
