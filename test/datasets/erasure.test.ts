import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, createTestSession, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

describe('keyed templates: erasing an end-user', () => {
  const { h, env } = useHarness();

  it("removes the records whose last write was that end-user's import, and only those", async () => {
    const template = await json(await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { key: 'staff', schema: { fields: [{ key: 'id' }, { key: 'team' }], primaryKey: 'id' } } }));
    const post = async (endUserId: string, rows: unknown[]) => {
      const { sessionToken } = await createTestSession(h, env, { endUserId });
      const response = await call(h, 'POST', '/v1/imports', { key: env.secretKey, session: sessionToken, body: { meta: { schemaKey: 'staff' }, rows } });
      assert.equal(response.status, 201, await response.clone().text());
      return (await json(response)).changes;
    };
    await post('alice', [{ id: '1', team: 'a' }, { id: '2', team: 'a' }, { id: '3', team: 'a' }]);
    await post('bob', [{ id: '2', team: 'b' }, { id: '4', team: 'b' }]);
    const owners = async () =>
      (await json(await call(h, 'GET', `/v1/templates/${template.id}/records`, { key: env.secretKey }))).data.map((r: any) => [r.key[0], r.endUserId]);
    assert.deepEqual(await owners(), [['1', 'alice'], ['2', 'bob'], ['3', 'alice'], ['4', 'bob']]);
    assert.equal((await call(h, 'DELETE', '/v1/end-users/alice', { key: env.secretKey })).status, 200);
    assert.deepEqual(await owners(), [['2', 'bob'], ['4', 'bob']]);
    // The dataset's size after the erasure: of the two records left, the next import carries one.
    assert.deepEqual(await post('carol', [{ id: '4', team: 'c' }]), { inserted: 0, updated: 1, unchanged: 0, missing: 1, removed: 0 });
  });
});
