import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, json } from '../helpers/harness';
import { useLiveHarness } from '../helpers/use-harness';
import { settledUpload, tusRequest, tusMetadata, tusUpload, uploadIdOf } from '../helpers/tus';

describe('/v1/uploads into a keyed template: the import mode in the metadata', () => {
  const { h, env, server } = useLiveHarness();
  const auth = () => ({ Authorization: `Bearer ${env.secretKey}` });
  const upload = async (csv: string, metadata: Record<string, string>) => {
    const url = await tusUpload(server.url, Buffer.from(csv), { headers: auth(), metadata: { filename: 'stock.csv', ...metadata } });
    return await settledUpload(server.url, uploadIdOf(url), auth());
  };
  const records = async (templateId: string) =>
    (await json(await call(h, 'GET', `/v1/templates/${templateId}/records?environment=${env.name}`, { key: env.secretKey }))).data.map((r: any) => r.key);

  it('applies an upload as upsert by default and as replace when asked: the records not in the file are removed', async () => {
    const template = await json(await call(h, 'POST', '/v1/templates', { key: env.secretKey, body: { key: 'stock', schema: { fields: [{ key: 'sku' }, { key: 'qty', type: 'integer' }], primaryKey: 'sku' } } }));
    const first = await upload('sku,qty\na,1\nb,2\n', { templateKey: 'stock' });
    assert.equal(first.status, 'completed', JSON.stringify(first));
    const upserted = await upload('sku,qty\nb,3\n', { templateKey: 'stock' });
    const upsertImport = await json(await call(h, 'GET', `/v1/imports/${upserted.importId}`, { key: env.secretKey }));
    assert.deepEqual(upsertImport.changes, { inserted: 0, updated: 1, unchanged: 0, missing: 1, removed: 0 });
    assert.equal((await records(template.id)).length, 2);

    const replaced = await upload('sku,qty\nb,3\n', { templateKey: 'stock', mode: 'replace' });
    const replaceImport = await json(await call(h, 'GET', `/v1/imports/${replaced.importId}`, { key: env.secretKey }));
    assert.deepEqual(replaceImport.changes, { inserted: 0, updated: 0, unchanged: 1, missing: 1, removed: 1 });
    assert.equal((await records(template.id)).length, 1);
  });

  it('refuses a mode it does not know at creation (400), and fails an upload with a mode into an unkeyed template', async () => {
    const refused = await tusRequest(server.url, 'POST', '/v1/uploads', { ...auth(), 'Upload-Length': '10', 'Upload-Metadata': tusMetadata({ templateKey: 'stock', mode: 'merge' }) });
    assert.equal(refused.status, 400);
    assert.match(JSON.stringify(await refused.json()), /mode/);

    const failed = await upload('name\nZoë\n', { templateKey: 'people', mode: 'replace' });
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.code, 'validation_failed');
    assert.match(JSON.stringify(failed.error), /keyed template/);
    assert.deepEqual(await h.sql("SELECT count(*) AS n FROM imports i JOIN templates t ON t.id = i.template_id WHERE t.key = 'people'"), [{ n: 0 }]);
  });
});
