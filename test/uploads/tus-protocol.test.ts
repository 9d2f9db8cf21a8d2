import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { sweepUploads } from '../../src/services/uploads';
import { createTestSession, json, testClock } from '../helpers/harness';
import { useLiveHarness } from '../helpers/use-harness';
import { settledUpload, tusMetadata, tusRequest, tusUpload, uploadIdOf } from '../helpers/tus';

const CSV = Buffer.from('name,age\nAda,36\nGrace,45\nLinus,28\n');

describe('/v1/uploads: the tus 1.0 protocol', () => {
  const clock = testClock();
  const { h, env, other, server } = useLiveHarness({
    clock,
    config: { IMPORTD_MAX_UPLOAD_BYTES: '4kb', IMPORTD_UPLOAD_QUOTA_BYTES: '6kb', IMPORTD_UPLOAD_EXPIRE_SECONDS: '3600' },
    environments: { other: { account: 'other' } },
  });
  const auth = () => ({ Authorization: `Bearer ${env.secretKey}` });
  const metadata = () => tusMetadata({ filename: 'people.csv', templateKey: 'people' });
  const uploadFiles = () => readdirSync(path.join(h.ctx.config.uploads.filesDir, 'uploads')).filter((name) => !name.startsWith('.'));
  /** Creates an upload of `length` bytes with the first bytes of `body`; answers its path. */
  const begin = async (length: number, body?: Buffer, headers = auth()) => {
    const response = await tusRequest(server.url, 'POST', '/v1/uploads', { ...headers, 'Upload-Length': String(length), 'Upload-Metadata': metadata() }, body);
    assert.equal(response.status, 201, await response.clone().text());
    return response.headers.get('Location')!;
  };

  it('tus-js-client creates, sends in chunks, and the finished upload becomes an import of the file rows', async () => {
    const url = await tusUpload(server.url, CSV, { headers: auth(), chunkSize: 10, metadata: { filename: 'people.csv', templateKey: 'people' } });
    const view = await settledUpload(server.url, uploadIdOf(url), auth());
    assert.equal(view.status, 'completed', JSON.stringify(view));
    assert.equal(view.rowsProcessed, 3);
    const rows = await json(await fetch(`${server.url}/v1/imports/${view.importId}/rows`, { headers: auth() }));
    assert.deepEqual(
      rows.data.map((row: { data: unknown }) => row.data),
      [
        { name: 'Ada', age: '36' },
        { name: 'Grace', age: '45' },
        { name: 'Linus', age: '28' },
      ],
    );
  });

  it('answers HEAD with the offset, 409 to a PATCH at another offset, then takes the right one; a cut upload resumed by tus-js-client completes', async () => {
    const location = await begin(CSV.length, CSV.subarray(0, 12));
    assert.match(location, /^\/v1\/uploads\/[0-9a-f-]{36}$/);
    const head = await tusRequest(server.url, 'HEAD', location, auth());
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('Upload-Offset'), '12');
    assert.equal(head.headers.get('Upload-Length'), String(CSV.length));
    assert.equal(head.headers.get('Tus-Resumable'), '1.0.0');
    assert.ok(head.headers.get('Upload-Expires'));
    const wrong = await tusRequest(server.url, 'PATCH', location, { ...auth(), 'Upload-Offset': '5' }, CSV.subarray(5, 20));
    assert.equal(wrong.status, 409);
    assert.equal((await json(wrong)).error.code, 'conflict');
    const right = await tusRequest(server.url, 'PATCH', location, { ...auth(), 'Upload-Offset': '12' }, CSV.subarray(12, 20));
    assert.equal(right.status, 204);
    assert.equal(right.headers.get('Upload-Offset'), '20');
    // The rest by tus' own client, resuming at the offset HEAD gives it.
    const url = await tusUpload(server.url, CSV, { headers: auth(), uploadUrl: `${server.url}${location}` });
    assert.equal(url, `${server.url}${location}`);
    const view = await settledUpload(server.url, uploadIdOf(location), auth());
    assert.equal(view.status, 'completed', JSON.stringify(view));
    const exported = await fetch(`${server.url}/v1/imports/${view.importId}/export?format=csv`, { headers: auth() });
    assert.equal((await exported.text()).replaceAll('\r\n', '\n'), CSV.toString());
  });

  it('refuses an Upload-Length over IMPORTD_MAX_UPLOAD_BYTES with 413 before storing anything', async () => {
    const before = uploadFiles().length;
    const uploads = await h.sql('SELECT id FROM uploads');
    const response = await tusRequest(server.url, 'POST', '/v1/uploads', { ...auth(), 'Upload-Length': String(4 * 1024 + 1), 'Upload-Metadata': metadata() }, Buffer.alloc(100, 'a'));
    assert.equal(response.status, 413);
    assert.equal((await json(response)).error.code, 'payload_too_large');
    assert.equal(uploadFiles().length, before);
    assert.deepEqual(await h.sql('SELECT id FROM uploads'), uploads);
    const refused = await tusUpload(server.url, Buffer.alloc(5000, 'a'), { headers: auth(), metadata: { filename: 'big.csv', templateKey: 'people' } }).then(
      () => undefined,
      (error: { originalResponse?: { getStatus(): number } }) => error,
    );
    assert.equal(refused?.originalResponse?.getStatus(), 413);
  });

  it("refuses an upload past the account's quota of unfinished uploads (413 quota_exceeded); terminating one gives its room back", async () => {
    const first = await begin(4000);
    const refused = await tusRequest(server.url, 'POST', '/v1/uploads', { ...auth(), 'Upload-Length': '3000', 'Upload-Metadata': metadata() });
    assert.equal(refused.status, 413);
    assert.equal((await json(refused)).error.code, 'quota_exceeded');
    const terminated = await tusRequest(server.url, 'DELETE', first, auth());
    assert.equal(terminated.status, 204);
    assert.ok(!existsSync(path.join(h.ctx.config.uploads.filesDir, 'uploads', path.basename(first))));
    assert.equal((await tusRequest(server.url, 'HEAD', first, auth())).status, 404);
    await begin(3000);
  });

  it('answers 410 for an unfinished upload past its expiry, and 404 once the sweep removed it with its file', async () => {
    const location = await begin(100, Buffer.from('name\n'));
    const id = path.basename(location);
    clock.advance(3601 * 1000);
    const gone = await tusRequest(server.url, 'HEAD', location, auth());
    assert.equal(gone.status, 410);
    const patched = await tusRequest(server.url, 'PATCH', location, { ...auth(), 'Upload-Offset': '5' }, Buffer.from('x\n'));
    assert.equal(patched.status, 410);
    assert.equal((await json(patched)).error.code, 'upload_expired');
    const swept = await sweepUploads(h.ctx);
    assert.ok(swept.expired >= 1);
    assert.equal((await tusRequest(server.url, 'HEAD', location, auth())).status, 404);
    assert.ok(!uploadFiles().includes(id));
    assert.deepEqual(await h.sql('SELECT id FROM uploads WHERE id = ?', id), []);
  });

  it("never shows one account's upload to another account's key or session (404)", async () => {
    const location = await begin(50, Buffer.from('name\n'));
    const theirs = { Authorization: `Bearer ${other.secretKey}` };
    assert.equal((await tusRequest(server.url, 'HEAD', location, theirs)).status, 404);
    assert.equal((await tusRequest(server.url, 'PATCH', location, { ...theirs, 'Upload-Offset': '5' }, Buffer.from('a\n'))).status, 404);
    assert.equal((await fetch(`${server.url}${location}`, { headers: theirs })).status, 404);
    const session = (await createTestSession(h, other)).sessionToken;
    const viaSession = { 'X-Public-Key': other.publicKey, Origin: other.origin, 'X-Session-Token': session };
    assert.equal((await tusRequest(server.url, 'HEAD', location, viaSession)).status, 404);
    assert.equal((await tusRequest(server.url, 'HEAD', location, auth())).headers.get('Upload-Offset'), '5');
  });

  it("refuses an upload sent with another account's session token, storing nothing", async () => {
    const theirs = (await createTestSession(h, other)).sessionToken;
    const files = uploadFiles().length;
    const uploads = await h.sql('SELECT id FROM uploads');
    const response = await tusRequest(
      server.url,
      'POST',
      '/v1/uploads',
      { 'X-Public-Key': env.publicKey, Origin: env.origin, 'X-Session-Token': theirs, 'Upload-Length': String(CSV.length), 'Upload-Metadata': metadata() },
      CSV,
    );
    assert.equal(response.status, 401);
    assert.equal((await json(response)).error.code, 'invalid_session');
    assert.equal(uploadFiles().length, files);
    assert.deepEqual(await h.sql('SELECT id FROM uploads'), uploads);
  });

  it('takes a Public Key from an allowed origin with a session, exposing the tus headers; a session without one is refused', async () => {
    const session = (await createTestSession(h, env)).sessionToken;
    const browser = { 'X-Public-Key': env.publicKey, Origin: env.origin, 'X-Session-Token': session };
    const created = await tusRequest(server.url, 'POST', '/v1/uploads', { ...browser, 'Upload-Length': '50', 'Upload-Metadata': metadata() });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('Access-Control-Allow-Origin'), env.origin);
    assert.match(created.headers.get('Access-Control-Expose-Headers')!, /Location.*Upload-Offset/);
    const noSession = await tusRequest(server.url, 'POST', '/v1/uploads', { 'X-Public-Key': env.publicKey, Origin: env.origin, 'Upload-Length': '50', 'Upload-Metadata': metadata() });
    assert.equal(noSession.status, 401);
    const preflight = await fetch(`${server.url}/v1/uploads`, {
      method: 'OPTIONS',
      headers: { Origin: env.origin, 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'tus-resumable,upload-offset' },
    });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('Access-Control-Allow-Headers')!, /Upload-Offset/);
    assert.match(preflight.headers.get('Access-Control-Allow-Methods')!, /HEAD/);
  });

  it('refuses a request without Tus-Resumable (412) and metadata without a template (400)', async () => {
    const bare = await fetch(`${server.url}/v1/uploads`, { method: 'POST', headers: { ...auth(), 'Upload-Length': '10' } });
    assert.equal(bare.status, 412);
    assert.equal((await json(bare)).error.code, 'precondition_failed');
    const noTemplate = await tusRequest(server.url, 'POST', '/v1/uploads', { ...auth(), 'Upload-Length': '10', 'Upload-Metadata': tusMetadata({ filename: 'a.csv' }) });
    assert.equal(noTemplate.status, 400);
    assert.equal((await json(noTemplate)).error.code, 'validation_failed');
  });
});
