import { before, describe } from 'node:test';
import { authFailureSuite } from '../helpers/auth-suite';
import { useHarness } from '../helpers/use-harness';
import { createImportOk } from './helpers';

describe('imports routes', () => {
  const { h, env, other } = useHarness({ environments: { other: { account: 'other' } } });
  let importId: string;
  before(async () => {
    importId = (await createImportOk(h, env, { rows: [{ a: 1 }] })).id;
  });

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
