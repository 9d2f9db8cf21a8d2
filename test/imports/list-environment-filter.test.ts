import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { deleteEnvironment } from '../../src/services/environments';
import { createTestEnvironment } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { insertImport } from '../helpers/imports-fixture';
import { walkPages } from './helpers';

describe('GET /v1/imports?environment= after an environment of that name was deleted and created again', () => {
  const { h, env: production } = useHarness();
  const earlier: string[] = [];
  const later: string[] = [];

  before(async () => {
    const staging = await createTestEnvironment(h, { name: 'staging' });
    for (let i = 0; i < 3; i++) earlier.push(await insertImport(h, staging, { rows: 0 }));
    await insertImport(h, production, { rows: 0 });
    await deleteEnvironment(h.ctx, { accountId: staging.accountId }, 'staging');
    const again = await createTestEnvironment(h, { name: 'staging' });
    for (let i = 0; i < 2; i++) later.push(await insertImport(h, again, { rows: 0 }));
  });

  it("lists the imports of every environment that had the name, newest first, page by page", async () => {
    const { items, pages } = await walkPages(h, production.secretKey, '/v1/imports?limit=2&environment=staging');
    assert.deepEqual(items.map((i) => i.id), [...earlier, ...later].reverse());
    assert.equal(pages[0].pagination.paging.total, 5);
  });

  it('lists the one environment of a name that was never reused', async () => {
    const { items } = await walkPages(h, production.secretKey, '/v1/imports?limit=2&environment=production');
    assert.equal(items.length, 1);
  });
});
