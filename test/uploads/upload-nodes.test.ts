import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger } from '../../src/core/logger';
import { createApp } from '../../src/http/app';
import { startLiveServer } from '../helpers/live-server';
import { joinNode } from '../helpers/nodes';
import { useLiveHarness } from '../helpers/use-harness';
import { settledUpload, tusMetadata, tusRequest, tusUpload, uploadIdOf } from '../helpers/tus';

describe('uploads across nodes sharing the database and the files folder', () => {
  const { h, env, server } = useLiveHarness();

  it('resumes on one node an upload begun on another, and the import is made once', async () => {
    const node = await joinNode(h, { config: { IMPORTD_FILES_DIR: h.ctx.config.uploads.filesDir } });
    const other = await startLiveServer({ ctx: node.ctx, app: createApp({ ctx: node.ctx, logger: createLogger('silent', () => undefined) }) });
    try {
      const auth = { Authorization: `Bearer ${env.secretKey}` };
      const csv = Buffer.from(`id,name\n${Array.from({ length: 500 }, (_, i) => `${i},name ${i}`).join('\n')}\n`);
      const created = await tusRequest(server.url, 'POST', '/v1/uploads', { ...auth, 'Upload-Length': String(csv.length), 'Upload-Metadata': tusMetadata({ filename: 'n.csv', templateKey: 'nodes' }) }, csv.subarray(0, 3000));
      const location = created.headers.get('Location')!;
      const head = await tusRequest(other.url, 'HEAD', location, auth);
      assert.equal(head.headers.get('Upload-Offset'), '3000');
      const url = await tusUpload(other.url, csv, { headers: auth, uploadUrl: `${other.url}${location}`, chunkSize: 1000 });
      const view = await settledUpload(server.url, uploadIdOf(url), auth);
      assert.equal(view.status, 'completed', JSON.stringify(view));
      assert.equal(view.rowsProcessed, 500);
      const exported = await fetch(`${server.url}/v1/imports/${view.importId}/export?format=csv`, { headers: auth });
      assert.equal((await exported.text()).replaceAll('\r\n', '\n'), csv.toString());
      assert.deepEqual(await h.sql('SELECT count(*) AS n FROM imports WHERE file_id = ?', view.id), [{ n: 1 }]);
    } finally {
      await other.close();
      await node.close();
    }
  });
});
