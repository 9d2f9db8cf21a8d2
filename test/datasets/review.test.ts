import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { call, json } from '../helpers/harness';
import { useHarness } from '../helpers/use-harness';

// A keyed template that requires review (issue 43, points 2 and 4): an import pending review is not applied to
// the dataset; its approval applies it against the dataset as it is then, with the changes in the answer and
// in import.completed.

const SCHEMA = { key: 'stock', review: 'required', fields: [{ key: 'sku' }, { key: 'qty', type: 'integer' }], primaryKey: ['sku'] };

describe('keyed templates under review', () => {
  const { h, env } = useHarness({ config: { IMPORTD_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  let templateId = '';
  const post = async (rows: unknown[], extra: Record<string, unknown> = {}) => {
    const response = await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaKey: 'stock' }, rows, ...extra } });
    assert.equal(response.status, 201, await response.clone().text());
    return await json(response);
  };
  const decide = async (verb: 'approve' | 'reject', id: string) => {
    const response = await call(h, 'POST', `/v1/imports/${id}/${verb}`, { key: env.secretKey });
    assert.equal(response.status, 200, await response.clone().text());
    return await json(response);
  };
  const records = async () =>
    (await json(await call(h, 'GET', `/v1/templates/${templateId}/records?limit=100`, { key: env.secretKey }))).data.map((r: any) => [r.key[0], r.record.qty]);

  before(async () => {
    const created = await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { schema: SCHEMA } });
    assert.equal(created.status, 201, await created.clone().text());
    templateId = (await json(created)).id;
    assert.equal((await call(h, 'POST', '/v1/webhooks', { key: env.secretKey, body: { url: 'https://127.0.0.1/hook' } })).status, 201);
  });

  it('applies an import only when approved, its changes computed against the dataset as it is then', async () => {
    const first = await post([{ sku: 'A', qty: 1 }, { sku: 'B', qty: 2 }]);
    assert.equal(first.status, 'pending_review');
    assert.equal(first.changes, undefined);
    assert.deepEqual(await records(), [], 'a pending import is not applied');
    const second = await post([{ sku: 'A', qty: 5 }, { sku: 'C', qty: 3 }], { mode: 'replace' });
    const approvedSecond = await decide('approve', second.id);
    assert.deepEqual(approvedSecond.changes, { inserted: 2, updated: 0, unchanged: 0, missing: 0, removed: 0 });
    assert.equal(approvedSecond.mode, 'replace');
    assert.deepEqual(await records(), [['A', 5], ['C', 3]]);
    // The first, approved after the second: A differs from the dataset now, B is new; upsert keeps C.
    const approvedFirst = await decide('approve', first.id);
    assert.deepEqual(approvedFirst.changes, { inserted: 1, updated: 1, unchanged: 0, missing: 1, removed: 0 });
    assert.deepEqual(await records(), [['A', 1], ['B', 2], ['C', 3]]);
    const detail = await json(await call(h, 'GET', `/v1/imports/${first.id}`, { key: env.secretKey }));
    assert.deepEqual(detail.changes, approvedFirst.changes);
    const events = await h.sql<{ type: string; payload: string }>("SELECT type, payload FROM webhook_events WHERE import_id = ? AND type = 'import.completed'", first.id);
    assert.equal(events.length, 1);
    assert.deepEqual(JSON.parse(events[0]!.payload).data.changes, approvedFirst.changes);
  });

  it('a rejected import is never applied', async () => {
    const before = await records();
    const rejected = await decide('reject', (await post([{ sku: 'Z', qty: 9 }])).id);
    assert.equal(rejected.status, 'rejected');
    assert.deepEqual(await records(), before);
  });
});
