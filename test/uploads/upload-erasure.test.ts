import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config/config';
import { checkFilesDir, FilesDirError } from '../../src/services/uploads';
import { createTestSession, json } from '../helpers/harness';
import { postgresOnly } from '../helpers/test-database';
import { useLiveHarness } from '../helpers/use-harness';
import { settledUpload, tusMetadata, tusRequest, tusUpload, uploadIdOf } from '../helpers/tus';

describe('uploads: erasure and the shared files folder', () => {
  const { h, env, server } = useLiveHarness({ env: { autoCreateTemplates: true } });
  const fileOf = (id: string) => path.join(h.ctx.config.uploads.filesDir, 'uploads', id);

  it("erasing an end-user removes the files of their imports and of their unfinished uploads", async () => {
    const session = (await createTestSession(h, env, { endUserId: 'erased-user' })).sessionToken;
    const browser = { 'X-Public-Key': env.publicKey, Origin: env.origin, 'X-Session-Token': session };
    const url = await tusUpload(server.url, Buffer.from('name\nAda\n'), { headers: browser, metadata: { filename: 'a.csv', templateKey: 'erasable' } });
    const done = await settledUpload(server.url, uploadIdOf(url), browser);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const unfinished = await tusRequest(server.url, 'POST', '/v1/uploads', { ...browser, 'Upload-Length': '100', 'Upload-Metadata': tusMetadata({ filename: 'b.csv', templateKey: 'erasable' }) }, Buffer.from('name\n'));
    const pending = path.basename(unfinished.headers.get('Location')!);
    assert.ok(existsSync(fileOf(done.id)) && existsSync(fileOf(pending)));
    const erased = await fetch(`${server.url}/v1/end-users/erased-user`, { method: 'DELETE', headers: { Authorization: `Bearer ${env.secretKey}` } });
    assert.equal(erased.status, 200);
    assert.ok(!existsSync(fileOf(done.id)));
    assert.ok(!existsSync(fileOf(pending)));
    assert.deepEqual(await h.sql("SELECT id FROM uploads WHERE end_user_id = 'erased-user'"), []);
  });

  it('refuses to start a PostgreSQL node whose files folder is not the one the first node marked', postgresOnly, async () => {
    await checkFilesDir(h.ctx);
    await checkFilesDir(h.ctx);
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'importd-files-'));
    const config = loadConfig({}, { IMPORTD_DB: h.dbPath, IMPORTD_FILES_DIR: elsewhere });
    await assert.rejects(checkFilesDir({ store: h.ctx.store, config }), (error: Error) => error instanceof FilesDirError && /IMPORTD_FILES_DIR: .* is not the folder/.test(error.message));
  });

  it('lets nodes started together on an empty shared folder agree on its marker, and refuses another folder', postgresOnly, async () => {
    await h.sql("DELETE FROM settings WHERE key = 'files-dir-marker'");
    const shared = mkdtempSync(path.join(tmpdir(), 'importd-files-'));
    const node = (dir: string) => ({ store: h.ctx.store, config: loadConfig({}, { IMPORTD_DB: h.dbPath, IMPORTD_FILES_DIR: dir }) });
    await Promise.all(Array.from({ length: 4 }, () => checkFilesDir(node(shared))));
    assert.deepEqual(readdirSync(shared).sort(), ['.importd-files-marker', 'uploads']);
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'importd-files-'));
    await assert.rejects(checkFilesDir(node(elsewhere)), FilesDirError);
  });
});

describe('uploads with IMPORTD_KEEP_FILES=false', () => {
  const { h, env, server } = useLiveHarness({ config: { IMPORTD_KEEP_FILES: 'false' } });

  it('removes the file once the import is stored; the import describes it without a fileId', async () => {
    const auth = { Authorization: `Bearer ${env.secretKey}` };
    const url = await tusUpload(server.url, Buffer.from('name\nAda\n'), { headers: auth, metadata: { filename: 'a.csv', templateKey: 'unkept' } });
    const view = await settledUpload(server.url, uploadIdOf(url), auth);
    assert.equal(view.status, 'completed', JSON.stringify(view));
    assert.ok(!existsSync(path.join(h.ctx.config.uploads.filesDir, 'uploads', view.id)));
    const detail = await json(await fetch(`${server.url}/v1/imports/${view.importId}`, { headers: auth }));
    assert.equal(detail.file.name, 'a.csv');
    assert.equal(detail.file.fileId, undefined);
    assert.equal((await fetch(`${server.url}/v1/imports/${view.importId}/file`, { headers: auth })).status, 404);
  });
});
