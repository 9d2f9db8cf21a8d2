import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DetailedError } from 'tus-js-client';
import { sweepUploads } from '../../src/services/uploads';
import { testClock } from '../helpers/harness';
import { useLiveHarness } from '../helpers/use-harness';
import { settledUpload, tusMetadata, tusRequest, tusUpload, uploadIdOf } from '../helpers/tus';

const CSV = Buffer.from('name,age\nAda,36\nGrace,45\nLinus,28\nBarbara,81\n');
const METADATA = { filename: 'people.csv', templateKey: 'people' };

// The refusals tus' own client meets and what it does with them (tus-protocol.test.ts checks the raw answers).
describe('/v1/uploads as tus-js-client sees it', () => {
  const clock = testClock();
  const { h, env, server } = useLiveHarness({ clock, config: { IMPORTD_UPLOAD_EXPIRE_SECONDS: '3600' } });
  const auth = () => ({ Authorization: `Bearer ${env.secretKey}` });
  const statusOf = (error: unknown) => (error as DetailedError).originalResponse?.getStatus();
  /** The CSV the import made of an upload exports, with the file's line ends. */
  const exported = async (id: string) => {
    const view = await settledUpload(server.url, id, auth());
    assert.equal(view.status, 'completed', JSON.stringify(view));
    const response = await fetch(`${server.url}/v1/imports/${view.importId}/export?format=csv`, { headers: auth() });
    return (await response.text()).replaceAll('\r\n', '\n');
  };

  it('answers 409 to a PATCH at an offset the upload has passed; tus-js-client asks HEAD again and goes on from there', async () => {
    const statuses: (number | undefined)[] = [];
    let raced = false;
    const url = await tusUpload(server.url, CSV, {
      headers: auth(),
      metadata: METADATA,
      chunkSize: 10,
      retryDelays: [0],
      // Once, after the first chunk: another client sends the next bytes between this one's HEAD and its PATCH.
      onBeforeRequest: async (request) => {
        const offset = Number(request.getHeader('Upload-Offset'));
        if (raced || request.getMethod() !== 'PATCH' || offset === 0) return;
        raced = true;
        const other = await tusRequest(server.url, 'PATCH', new URL(request.getURL()).pathname, { ...auth(), 'Upload-Offset': String(offset) }, CSV.subarray(offset, offset + 7));
        assert.equal(other.status, 204);
      },
      onShouldRetry: (error) => {
        statuses.push(statusOf(error));
        return true;
      },
    });
    assert.deepEqual(statuses, [409]);
    assert.equal(await exported(uploadIdOf(url)), CSV.toString());
  });

  it('resuming an expired upload: 410, then 404 once swept; given its endpoint, tus-js-client begins a new upload', async () => {
    const created = await tusRequest(server.url, 'POST', '/v1/uploads', { ...auth(), 'Upload-Length': String(CSV.length), 'Upload-Metadata': tusMetadata(METADATA) }, CSV.subarray(0, 20));
    assert.equal(created.status, 201);
    const uploadUrl = `${server.url}${created.headers.get('Location')}`;
    clock.advance(3601 * 1000);
    const resume = () => tusUpload(server.url, CSV, { headers: auth(), uploadUrl, endpoint: null }).then(() => assert.fail('resumed an expired upload'), (error: Error) => error);
    const expired = await resume();
    assert.equal(statusOf(expired), 410);
    assert.match(expired.message, /unable to resume upload/);
    assert.ok((await sweepUploads(h.ctx)).expired >= 1);
    assert.equal(statusOf(await resume()), 404);
    const url = await tusUpload(server.url, CSV, { headers: auth(), uploadUrl, metadata: METADATA });
    assert.notEqual(url, uploadUrl);
    assert.equal(await exported(uploadIdOf(url)), CSV.toString());
  });
});
