import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { purgeExpiredImports } from '../../src/services/compliance';
import { call, json, testClock, type TestEnvironment } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';
import { insertImport } from '../helpers/imports-fixture';
import { contactRows, createImportOk } from './helpers';

const DAY = 86_400_000;

// The unfiltered `total` of GET /v1/imports is a counter kept by database triggers: every way an import
// enters or leaves status 'complete' must move it, in both accounts' isolation, as a real COUNT would.
describe('GET /v1/imports total (the per-account counter)', () => {
  const clock = testClock('2026-03-01T00:00:00.000Z');
  const { h, env, other } = useHarness({ clock, config: { IMPORTD_RETENTION_DAYS: '30' }, environments: { other: { account: 'other-co' } } });

  const listedTotal = async (of: TestEnvironment, query = '') => {
    const response = await call(h, 'GET', `/v1/imports?limit=0${query}`, { key: of.secretKey });
    assert.equal(response.status, 200, await response.clone().text());
    return (await json(response)).pagination.paging.total as number;
  };
  const realCount = async (of: TestEnvironment) =>
    Number((await h.sql<{ n: number }>("SELECT count(*) AS n FROM imports WHERE account_id = ? AND status = 'complete'", of.accountId))[0]!.n);
  const assertTotals = async (expected: { env: number; other: number }) => {
    assert.deepEqual({ env: await realCount(env), other: await realCount(other) }, expected, 'the real COUNT');
    assert.deepEqual({ env: await listedTotal(env), other: await listedTotal(other) }, expected, 'the listed total');
  };

  it('starts at 0 for an account without imports, and limit=0 still answers it', async () => {
    await assertTotals({ env: 0, other: 0 });
  });

  it('follows creates, writing imports, deletes, retention and erasure, each account on its own', async () => {
    const created = [];
    for (let i = 0; i < 3; i++) created.push((await createImportOk(h, env, { rows: contactRows(2) })).id as string);
    await createImportOk(h, other, { rows: contactRows(1) });
    await assertTotals({ env: 3, other: 1 });

    await insertImport(h, env, { status: 'writing' });
    await assertTotals({ env: 3, other: 1 });

    assert.equal((await call(h, 'DELETE', `/v1/imports/${created[0]}`, { key: env.secretKey })).status, 200);
    assert.equal((await call(h, 'DELETE', `/v1/imports/${created[1]}`, { key: other.secretKey })).status, 404, "another account's import");
    await assertTotals({ env: 2, other: 1 });

    const old = new Date(clock().getTime() - 40 * DAY).toISOString();
    await insertImport(h, env, { createdAt: old });
    await insertImport(h, other, { createdAt: old });
    await insertImport(h, other, { createdAt: old, status: 'writing' });
    await assertTotals({ env: 3, other: 2 });
    assert.equal((await purgeExpiredImports(h.ctx))?.imports, 2);
    await assertTotals({ env: 2, other: 1 });

    await insertImport(h, env, { endUserId: 'alice' });
    await insertImport(h, env, { endUserId: 'alice', status: 'writing' });
    await insertImport(h, other, { endUserId: 'alice' });
    await assertTotals({ env: 3, other: 2 });
    const erased = await call(h, 'DELETE', '/v1/end-users/alice', { key: env.secretKey });
    assert.equal(erased.status, 200);
    assert.equal((await json(erased)).deleted.imports, 2);
    await assertTotals({ env: 2, other: 2 });
  });

  it('counts an import only once it completes, and not again when it is updated', async () => {
    const before = await realCount(env);
    const id = await insertImport(h, env, { status: 'writing' });
    await h.sql("UPDATE imports SET status = 'complete' WHERE id = ?", id);
    await h.sql("UPDATE imports SET updated_at = ?, status = 'complete' WHERE id = ?", clock().toISOString(), id);
    assert.equal(await listedTotal(env), before + 1);
    assert.equal(await realCount(env), before + 1);
  });

  it('counts imports completed at the same time in one account, each once', async () => {
    const before = await realCount(env);
    await Promise.all(Array.from({ length: 12 }, () => createImportOk(h, env, { rows: contactRows(3) })));
    assert.equal(await realCount(env), before + 12);
    assert.equal(await listedTotal(env), before + 12);
  });

  it('keeps COUNT for filtered totals', async () => {
    const unfiltered = await listedTotal(env);
    assert.equal(await listedTotal(env, `&environment=${env.name}`), unfiltered);
    assert.equal(await listedTotal(env, '&startDate=2100-01-01T00:00:00.000Z'), 0);
    assert.equal(await listedTotal(env, '&userEmail=nobody'), 0);
  });

  it('reads the counter itself for the unfiltered total (not a COUNT of the imports)', async () => {
    const real = await realCount(env);
    await h.sql('UPDATE import_counts SET complete = complete + 1000 WHERE account_id = ?', env.accountId);
    try {
      assert.equal(await listedTotal(env), real + 1000);
    } finally {
      await h.sql('UPDATE import_counts SET complete = complete - 1000 WHERE account_id = ?', env.accountId);
    }
    assert.equal(await listedTotal(env), real);
  });

  it("drops the account's counter with the account, and leaves the other account's", async () => {
    const kept = await realCount(env);
    await h.sql('DELETE FROM accounts WHERE id = ?', other.accountId);
    assert.deepEqual(await h.sql('SELECT account_id FROM import_counts WHERE account_id = ?', other.accountId), []);
    assert.equal(await listedTotal(env), kept);
  });
});
