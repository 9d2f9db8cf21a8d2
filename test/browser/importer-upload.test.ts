import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import writeExcelFile from 'write-excel-file/node';
import { createTemplate } from '../../src/services/templates';
import { chromiumSkipReason } from '../helpers/chromium';
import { call, json } from '../helpers/harness';
import { tusRequest } from '../helpers/tus';
import { waitFor } from '../helpers/live-server';
import { act, alertText, chosenMapping, IN, pickFile, shownText, stepsSeen, waitIn } from './importer-page';
import { startImporterFixture, type ImporterFixture } from './importer-fixture';

// Page globals, used only inside page.evaluate callbacks (the test tsconfig has no DOM library).
declare const document: any;
declare const window: any;
declare const localStorage: any;

/** The size of the generated CSV: a file sent whole to /v1/uploads (the importer's threshold is 20 MiB). */
const FILE_MB = 100;
/** The importer's tus chunk (resumable.ts): the page is reloaded while the third one is on its way. */
const CHUNK = 16 * 1024 * 1024;
const FIELDS = ['id', 'name', 'email', 'city', 'note'].map((key) => ({ key, label: key }));

describe('<importd-importer> sends a large file with tus, in headless Chromium', { skip: chromiumSkipReason() }, () => {
  let f: ImporterFixture;
  let templateId: string;
  /** Every tus request the server was sent: method, path, Upload-Offset. */
  const seen: { method: string; path: string; offset: string | null }[] = [];
  /** While set, a PATCH at this offset or past it is held (never reaches importd) until `release()`. */
  let holdAt: number | undefined;
  let held: (() => void) | undefined;
  let release = () => undefined as void;

  before(async () => {
    f = await startImporterFixture({
      around: (fetch) => async (request) => {
        const path = new URL(request.url).pathname;
        if (!path.startsWith('/v1/uploads') || request.method === 'OPTIONS') return fetch(request);
        const offset = request.headers.get('Upload-Offset');
        seen.push({ method: request.method, path, offset });
        if (request.method === 'PATCH' && holdAt !== undefined && Number(offset) >= holdAt) {
          // The connection as a reload cuts it: the page goes away while these bytes are on their way.
          await new Promise<void>((resolve) => {
            release = resolve;
            held?.();
          });
          return new Response(null, { status: 503 });
        }
        return fetch(request);
      },
    });
    templateId = (await createTemplate(f.h.ctx, f.env.accountId, { key: 'people', schema: { fields: FIELDS } })).id;
  });
  after(async () => {
    release();
    await f?.close();
  });

  /** Picks the file, checks the mapping and the file's summary, confirms it: the upload starts. */
  const chooseAndConfirm = async (file: string, summary = /· 1 row, 5 columns/) => {
    await pickFile(f.page, file);
    await waitIn(f.page, '[data-action="confirm-mapping"]');
    assert.deepEqual(await chosenMapping(f.page), Object.fromEntries(FIELDS.map(({ key }) => [key, key])));
    assert.match(await shownText(f.page), summary);
    await act(f.page, 'confirm-mapping');
  };
  const recordCompletion = () =>
    f.page.evaluate(() => document.querySelector('importd-importer').addEventListener('importd:complete', (event: any) => (window.done = event.detail)));

  it(`uploads a ${FILE_MB} MB CSV through a page reload, resuming at the offset the server has, and imports every row`, async () => {
    const { file, rows, sha256 } = await generateCsv(f, FILE_MB);
    holdAt = 2 * CHUNK;
    const holding = new Promise<void>((resolve) => (held = resolve));
    await f.mount(templateId, { endUserId: 'big-files' });
    // Only the file's first 512 KiB are read for the mapping.
    await chooseAndConfirm(file, /the first [\d,]+ rows shown/);
    await holding;
    const posts = seen.filter((request) => request.method === 'POST');
    assert.equal(posts.length, 1);
    const location = seen.find((request) => request.method === 'PATCH')!.path;
    const before = await tusRequest(f.server.url, 'HEAD', location, { Authorization: `Bearer ${f.env.secretKey}` });
    assert.equal(before.headers.get('Upload-Offset'), String(2 * CHUNK));
    assert.ok(await f.page.evaluate(() => Object.keys(localStorage).some((key: string) => key.startsWith('tus::'))), 'tus-js-client kept the upload URL');

    // Reload in the middle: a new page, a new session for the same end-user, the same file chosen again.
    await f.page.reload();
    holdAt = undefined;
    release();
    const resumedFrom = seen.length;
    await f.mount(templateId, { endUserId: 'big-files' });
    await recordCompletion();
    await chooseAndConfirm(file, /the first [\d,]+ rows shown/);
    await f.page.waitForFunction(() => window.done, { polling: 500, timeout: 0 });
    const done = await f.page.evaluate(() => window.done);

    const after = seen.slice(resumedFrom);
    assert.deepEqual(after[0], { method: 'HEAD', path: location, offset: null });
    assert.equal(after.find((request) => request.method === 'PATCH')?.offset, String(2 * CHUNK), 'the first PATCH after the reload goes on from the server offset');
    assert.equal(seen.filter((request) => request.method === 'POST').length, 1, 'no second upload was created');
    assert.deepEqual((await stepsSeen(f.page)).slice(-1), ['done']);
    assert.ok((await stepsSeen(f.page)).includes('submitting'));
    assert.equal(done.rowCount, rows);
    assert.deepEqual(await f.page.evaluate(() => Object.keys(localStorage).filter((key: string) => key.startsWith('tus::'))), [], 'the finished upload is forgotten');

    const uploads = await f.h.sql<{ status: string; import_id: string }>('SELECT status, import_id FROM uploads');
    assert.deepEqual(uploads, [{ status: 'completed', import_id: done.importId }]);
    const detail = await json(await call(f.h, 'GET', `/v1/imports/${done.importId}`, { key: f.env.secretKey }));
    assert.equal(detail.cellStats.rowCount, rows);
    assert.equal(detail.file.sha256, sha256, 'the file on the server is the file chosen');
    const exported = await fetch(`${f.server.url}/v1/imports/${done.importId}/export?format=csv`, { headers: { Authorization: `Bearer ${f.env.secretKey}` } });
    assert.equal(await sha256Of(exported.body!), sha256, 'the export is the file, byte for byte');
  });

  it('cancels the earlier upload of the same file when it is chosen again with another mapping', async () => {
    const csv = f.file('remapped.csv', 'id,name,email,city,note\n1,Ada,ada@example.com,London,first\n');
    const start = seen.length;
    holdAt = 0;
    const holding = new Promise<void>((resolve) => (held = resolve));
    await f.mount(templateId, { endUserId: 'remapping' });
    await f.page.evaluate(() => document.querySelector('importd-importer').setAttribute('upload-from', '0'));
    await chooseAndConfirm(csv);
    await holding;
    const earlier = seen.slice(start).find((request) => request.method === 'PATCH')!.path;
    await f.page.reload();
    holdAt = undefined;
    release();
    await f.mount(templateId, { endUserId: 'remapping' });
    await f.page.evaluate(() => document.querySelector('importd-importer').setAttribute('upload-from', '0'));
    await recordCompletion();
    await pickFile(f.page, csv);
    await waitIn(f.page, 'select[data-field="note"]');
    await f.page.select(`${IN} select[data-field="note"]`, '-1');
    await act(f.page, 'confirm-mapping');
    await f.page.waitForFunction(() => window.done, { polling: 100, timeout: 60_000 });
    const done = await f.page.evaluate(() => window.done);
    assert.deepEqual((await f.stored(done.importId)).rows, [{ id: '1', name: 'Ada', email: 'ada@example.com', city: 'London' }]);
    await waitFor(() => seen.slice(start).some((request) => request.method === 'DELETE' && request.path === earlier));
    assert.equal(seen.slice(start).filter((request) => request.method === 'POST').length, 2);
    await waitFor(async () => (await f.h.sql('SELECT id FROM uploads WHERE id = ?', earlier.split('/').pop())).length === 0);
  });

  it('sends an XLSX with the sheet and header row chosen in the page, which the server reads the same way', async () => {
    await f.mount(templateId, { endUserId: 'workbooks' });
    await f.page.evaluate(() => document.querySelector('importd-importer').setAttribute('upload-from', '0'));
    await recordCompletion();
    const cells = (values: string[]) => values.map((value) => ({ type: String, value }));
    const people = [cells(['People export']), [], cells(FIELDS.map(({ key }) => key)), cells(['1', 'Ada', 'ada@example.com', 'London', '00123']), cells(['2', 'Grace', 'grace@example.com', 'Arlington', 'x'])];
    const workbook = await writeExcelFile([
      { sheet: 'Notes', data: [cells(['nothing to import'])] },
      { sheet: 'People', data: people as never },
    ]).toBuffer();
    await pickFile(f.page, f.file('people.xlsx', workbook));
    await (await waitIn(f.page, 'select#sheet')).select('1');
    await act(f.page, 'choose-sheet');
    await waitIn(f.page, 'tr.header[data-header-row="2"]');
    await act(f.page, 'confirm-mapping');
    await f.page.waitForFunction(() => window.done, { polling: 100, timeout: 60_000 });
    const done = await f.page.evaluate(() => window.done);
    const { rows, meta } = await f.stored(done.importId);
    assert.deepEqual(rows, [
      { id: '1', name: 'Ada', email: 'ada@example.com', city: 'London', note: '00123' },
      { id: '2', name: 'Grace', email: 'grace@example.com', city: 'Arlington', note: 'x' },
    ]);
    assert.equal(meta.file.sheet, 'People');
  });

  it("shows the server's error when it refuses the file's rows, back on the mapping step", async () => {
    const strict = await createTemplate(f.h.ctx, f.env.accountId, { key: 'strict', schema: { onInvalid: 'reject', fields: [{ key: 'email', label: 'Email', type: 'email', required: true }] } });
    await f.mount(strict.id, { endUserId: 'small-files' });
    // Any size goes through /v1/uploads from this size on.
    await f.page.evaluate(() => document.querySelector('importd-importer').setAttribute('upload-from', '0'));
    await pickFile(f.page, f.file('emails.csv', 'Email\nada@example.com\nnot-an-email\n'));
    await act(f.page, 'confirm-mapping');
    await f.page.waitForFunction(() => document.querySelector('importd-importer').shadowRoot.querySelector('[role=alert]').textContent !== '', { polling: 100 });
    assert.match(await alertText(f.page), /1 invalid cell.*rows\.1\.email.*\(validation_failed\)/);
    await waitIn(f.page, '[data-action="confirm-mapping"]');
    const [upload] = await f.h.sql<{ status: string; import_id: string | null }>("SELECT status, import_id FROM uploads WHERE metadata LIKE '%emails.csv%'");
    assert.deepEqual(upload, { status: 'failed', import_id: null });
  });
});

/** Writes a CSV of about `megabytes` MB (CRLF lines, as importd exports) in the fixture's folder. */
async function generateCsv(f: ImporterFixture, megabytes: number): Promise<{ file: string; rows: number; sha256: string }> {
  const file = f.file('people.csv', '');
  const out = createWriteStream(file);
  const hash = createHash('sha256');
  const write = (text: string) => {
    hash.update(text);
    return out.write(text) ? undefined : new Promise<void>((resolve) => out.once('drain', () => resolve()));
  };
  await write(`${FIELDS.map(({ key }) => key).join(',')}\r\n`);
  let bytes = 0;
  let rows = 0;
  const note = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore';
  while (bytes < megabytes * 1024 * 1024) {
    let batch = '';
    for (let i = 0; i < 1000; i++, rows++) batch += `${rows},Person ${rows},person${rows}@example.com,City ${rows % 997},${note} ${rows % 7919}\r\n`;
    bytes += batch.length;
    await write(batch);
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return { file, rows, sha256: hash.digest('hex') };
}

async function sha256Of(body: ReadableStream<Uint8Array>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
  return hash.digest('hex');
}
