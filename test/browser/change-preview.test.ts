import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTemplate, updateTemplate } from '../../src/services/templates';
import { chromiumSkipReason } from '../helpers/chromium';
import { call, json } from '../helpers/harness';
import { act, completed, IN, pickFile, waitIn } from './importer-page';
import { startImporterFixture, type ImporterFixture } from './importer-fixture';
import { reviewChecked, typeInCell } from './review-page';

// Page globals, used only inside page.evaluate callbacks (the test tsconfig has no DOM library).
declare const document: any;

const STOCK = {
  primaryKey: ['sku'],
  fields: [
    { key: 'sku', label: 'SKU' },
    { key: 'name', label: 'Name' },
    { key: 'price', label: 'Price', type: 'number' },
  ],
};
const FIRST = [
  { sku: 'S1', name: 'Nut', price: 10 },
  { sku: 'S2', name: 'Bolt', price: 10 },
  { sku: 'S3', name: 'Washer', price: 2 },
  { sku: 'S4', name: 'Screw', price: 3 },
  { sku: 'S5', name: 'Rivet', price: 4 },
  { sku: 'S6', name: 'Pin', price: 5 },
];
// S1 as before, S2 and S3 changed, S7 and S8 new; S4 to S6 missing.
const SECOND = 'SKU,Name,Price\nS1,Nut,10\nS2,Bolt,12\nS3,Washer M4,2\nS7,Nail,1\nS8,Clip,0.5\n';

/** The preview box once it has an answer (or failed): its state and the texts the end-user reads. */
async function previewShown(page: ImporterFixture['page'], state: 'ready' | 'failed', summary?: string) {
  await page
    .waitForFunction(
      (wanted: string, text: string | null) => {
        const box = document.querySelector('importd-importer')?.shadowRoot?.querySelector('[data-preview]');
        return box?.dataset.state === wanted && (text === null || box.querySelector('[data-preview-summary]')?.textContent === text);
      },
      { polling: 50, timeout: 60_000 },
      state,
      summary ?? null,
    )
    .catch(async (error: Error) => {
      const box = await page.$eval(`${IN} [data-preview]`, (element: any) => `${element.dataset.state}: ${element.textContent}`);
      throw new Error(`${error.message}; the preview shows ${box}`);
    });
  return page.$eval(`${IN} [data-preview]`, (box: any) => ({
    summary: box.querySelector('[data-preview-summary]')?.textContent ?? null,
    counts: Object.fromEntries([...box.querySelectorAll('[data-change]')].map((part: any) => [part.dataset.change, part.textContent])),
    changed: [...box.querySelectorAll('[data-changed-rows] li')].map((item: any) => item.textContent),
    alert: box.querySelector('[role=alert]')?.textContent ?? null,
  }));
}

describe('<importd-importer> previews what an import into a keyed template changes', { skip: chromiumSkipReason() }, () => {
  let f: ImporterFixture;
  /** The bodies of the page's POSTs to /v1/imports (a Blob's body is read through the DevTools protocol). */
  const posted: Promise<string>[] = [];
  const dryRunBodies = async () => (await Promise.all(posted)).filter((body) => body.includes('"dryRun":true'));

  before(async () => {
    f = await startImporterFixture();
    f.page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/v1/imports')) posted.push(request.fetchPostData().then((body) => body ?? ''));
    });
  });
  after(async () => {
    await f?.close();
  });

  it("shows the server's dry run before the import is submitted, asks again after an edit, and imports what it showed", async () => {
    const template = await createTemplate(f.h.ctx, f.env.accountId, { key: 'stock', schema: STOCK });
    const first = await call(f.h, 'POST', '/v1/imports', { key: f.env.secretKey, body: { meta: { schemaId: template.id }, rows: FIRST } });
    assert.equal(first.status, 201, await first.clone().text());

    await f.mount(template.id);
    await pickFile(f.page, f.file('stock.csv', SECOND));
    await act(f.page, 'confirm-mapping');
    assert.match(await reviewChecked(f.page), /All 5 rows are valid/);
    const shown = await previewShown(f.page, 'ready');

    // The same rows, as a backend would ask with the Secret Key: the page shows the server's numbers.
    const rows = SECOND.trimEnd().split('\n').slice(1).map((line) => { const [sku, name, price] = line.split(','); return { sku, name, price }; });
    const server = await json(await call(f.h, 'POST', '/v1/imports', { key: f.env.secretKey, body: { meta: { schemaId: template.id }, dryRun: true, rows } }));
    assert.deepEqual(server.changes, { inserted: 2, updated: 2, unchanged: 1, missing: 3, removed: 0 });
    const { inserted, updated, unchanged, missing } = server.changes;
    assert.deepEqual(shown.counts, { inserted: `${inserted} new`, updated: `${updated} changed`, unchanged: `${unchanged} unchanged`, missing: `${missing} missing` });
    assert.equal(shown.summary, '2 new, 2 changed, 1 unchanged, 3 missing');
    assert.deepEqual(shown.changed, ['S2 Price: 10 → 12', 'S3 Name: Washer → Washer M4']);
    const dryRuns = await dryRunBodies();
    assert.equal(dryRuns.length, 1, 'one dry run for the review');
    assert.ok(dryRuns[0]!.includes(`"schemaId":"${template.id}"`));
    await f.screenshot('preview');

    // An edit changes what the import would do: the preview asks again.
    await typeInCell(f.page, 0, 'price', '11');
    const again = await previewShown(f.page, 'ready', '2 new, 3 changed, 3 missing');
    assert.deepEqual(again.changed, ['S1 Price: 10 → 11', 'S2 Price: 10 → 12', 'S3 Name: Washer → Washer M4']);
    assert.equal((await dryRunBodies()).length, 2);

    await act(f.page, 'submit');
    const done = await completed(f.page);
    const detail = await json(await call(f.h, 'GET', `/v1/imports/${done.importId}`, { key: f.env.secretKey }));
    assert.deepEqual(detail.changes, { inserted: 2, updated: 3, unchanged: 0, missing: 3, removed: 0 });
    const updatedRows = await json(await call(f.h, 'GET', `/v1/imports/${done.importId}/rows?change=updated`, { key: f.env.secretKey }));
    assert.deepEqual(updatedRows.data.map((row: { data: unknown; previous: unknown }) => [row.data, row.previous]), [
      [{ sku: 'S1', name: 'Nut', price: 11 }, { price: 10 }],
      [{ sku: 'S2', name: 'Bolt', price: 12 }, { price: 10 }],
      [{ sku: 'S3', name: 'Washer M4', price: 2 }, { name: 'Washer' }],
    ]);
    const records = await json(await call(f.h, 'GET', `/v1/templates/${template.id}/records?environment=${f.env.name}&limit=100`, { key: f.env.secretKey }));
    assert.deepEqual(
      records.data.map((record: { record: { sku: string; price: number } }) => `${record.record.sku}:${record.record.price}`),
      ['S1:11', 'S2:12', 'S3:2', 'S4:3', 'S5:4', 'S6:5', 'S7:1', 'S8:0.5'],
    );
  });

  it('shows a failed dry run and lets the end-user go back; an unkeyed template asks for none', async () => {
    // The template tightens after the page loaded it: the server refuses what the page found valid.
    const template = await createTemplate(f.h.ctx, f.env.accountId, { key: 'strict-stock', schema: { ...STOCK, onInvalid: 'reject' } });
    await f.mount(template.id);
    await pickFile(f.page, f.file('strict.csv', SECOND));
    // The mapping step is shown once the page has the template (its rules as they were).
    await waitIn(f.page, 'button[data-action="confirm-mapping"]');
    await updateTemplate(f.h.ctx, f.env.accountId, template.id, { schema: { ...STOCK, onInvalid: 'reject', fields: STOCK.fields.map((field) => (field.key === 'price' ? { ...field, min: 100 } : field)) } });
    await act(f.page, 'confirm-mapping');
    await reviewChecked(f.page);
    const failed = await previewShown(f.page, 'failed');
    assert.match(failed.alert ?? '', /^The changes could not be previewed: 5 invalid cells; the first: rows\.0\.price: Price must be at least 100 \(validation_failed\) \(Request id: .+\)$/);
    assert.equal(await f.page.$eval(`${IN} [data-action="back"]`, (button: any) => button.disabled), false);
    await act(f.page, 'back');
    await waitIn(f.page, 'button[data-action="confirm-mapping"]');

    const before = (await dryRunBodies()).length;
    const free = await createTemplate(f.h.ctx, f.env.accountId, { key: 'stock-unkeyed', schema: { fields: STOCK.fields } });
    await f.mount(free.id);
    await pickFile(f.page, f.file('free.csv', SECOND));
    await act(f.page, 'confirm-mapping');
    await reviewChecked(f.page);
    assert.equal(await f.page.$eval(`${IN} [data-preview]`, (box: any) => box.hidden), true);
    await act(f.page, 'submit');
    await completed(f.page);
    assert.equal((await dryRunBodies()).length, before, 'no dry run for an unkeyed template');
  });
});
