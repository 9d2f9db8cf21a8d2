import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import type { Page } from 'puppeteer-core';
import { buildEmbed } from '../../scripts/embed-build.mjs';
import { createLogger } from '../../src/core/logger';
import { createApp } from '../../src/http/app';
import { issueSession } from '../../src/services/sessions';
import { createTemplate } from '../../src/services/templates';
import { chromiumSkipReason, launchChromium, servePage, type Chromium, type PageServer } from '../helpers/chromium';
import { call, createHarness, createTestEnvironment, json, type Harness, type TestEnvironment } from '../helpers/harness';
import { startLiveServer, type LiveServer } from '../helpers/live-server';
import { act, completed, IN, mountImporter, pickFile, waitIn } from './importer-page';
import { clickControl, drawnRows, openCell, reviewChecked, shownProblems, storedNote, typeInCell } from './review-page';

// Page globals, used only inside page.evaluate callbacks (the test tsconfig has no DOM library).
declare const document: any;

// Strict: the server refuses a whole import with an invalid cell, so the page must refuse it first.
const STRICT = {
  onInvalid: 'reject',
  fields: [
    { key: 'email', label: 'Email', type: 'email', required: true, unique: true },
    { key: 'country', label: 'Country', type: 'enum', options: [{ value: 'DE', label: 'Germany', alternatives: ['Deutschland'] }, { value: 'FR', label: 'France' }] },
    { key: 'born', label: 'Born', type: 'date', formats: ['DD/MM/YYYY'] },
    { key: 'phone', label: 'Phone', type: 'phone', defaultCountry: 'DE' },
  ],
};
const CSV = 'Email,Country,Born,Phone\nada@example.com,Deutschland,03/04/2025,030 1234567\nbob@,Spain,2025-04-03,12\n';

describe('the review grid in headless Chromium', { skip: chromiumSkipReason() }, () => {
  let h: Harness;
  let env: TestEnvironment;
  let server: LiveServer;
  let chromium: Chromium;
  let customer: PageServer;
  let page: Page;
  let dir: string;

  const file = (name: string, bytes: Buffer | string) => {
    const target = path.join(dir, name);
    writeFileSync(target, bytes);
    return target;
  };
  /** Mounts the importer on a template made of `schema`, picks `target`, confirms the suggested mapping and values. */
  const review = async (key: string, schema: Record<string, unknown>, target: string) => {
    const templateId = (await createTemplate(h.ctx, env.accountId, { key, schema })).id;
    const { sessionToken } = await issueSession(h.ctx, env, { endUserId: 'end-user-1', templateId });
    await mountImporter(page, customer.origin, { server: server.url, publicKey: env.publicKey, sessionToken, templateId });
    await pickFile(page, target);
    await act(page, 'confirm-mapping');
    // An enum field, or dates not yet ISO, bring the values step first (its suggestions taken as they are).
    await waitIn(page, '[data-action="confirm-values"], [data-grid-viewport]');
    if (await page.evaluate(() => document.querySelector('importd-importer').shadowRoot.querySelector('[data-action="confirm-values"]') !== null)) await act(page, 'confirm-values');
    return { templateId, summary: await reviewChecked(page) };
  };
  const storedRows = async (importId: string) =>
    (await json(await call(h, 'GET', `/v1/imports/${importId}/rows?limit=100`, { key: env.secretKey }))).data.map((row: { data: unknown }) => row.data);

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'importd-review-'));
    h = await createHarness();
    customer = await servePage();
    env = await createTestEnvironment(h, { origins: [customer.origin] });
    const script = path.join(dir, 'importer.js');
    await buildEmbed(script);
    server = await startLiveServer({ ctx: h.ctx, app: createApp({ ctx: h.ctx, logger: createLogger('error', () => {}), embedSource: { file: script } }) });
    chromium = await launchChromium();
    page = await chromium.browser.newPage();
    await page.setViewport({ width: 900, height: 900 });
  });
  after(async () => {
    h?.ctx.themeEvents.closeAll();
    await chromium?.close();
    await server?.close();
    await customer?.close();
    h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses an invalid cell in the page with the server's message, as the server refuses the same file from a Secret Key", async () => {
    const { templateId, summary } = await review('strict', STRICT, file('strict.csv', CSV));
    assert.match(summary, /1 row has problems/);
    assert.equal(await page.$eval(`${IN} [data-action="submit"]`, (button: any) => button.disabled), true);
    const inPage = await shownProblems(page);
    assert.deepEqual(inPage, [
      { row: 1, key: 'email', text: 'bob@', message: 'Email must be an e-mail address' },
      { row: 1, key: 'country', text: 'Spain', message: 'Country must be one of DE, FR' },
      { row: 1, key: 'phone', text: '12', message: 'Phone must be a phone number' },
    ]);
    // The values step sent Deutschland as DE and the dates as ISO (2025-04-03 is ISO already, which every date
    // field reads); valid cells the server stores in another form say so: nothing is changed silently.
    assert.deepEqual(
      await Promise.all(['country', 'born', 'phone', 'email'].map((key) => storedNote(page, 0, key))),
      [null, null, '→ stored as +49301234567', null],
    );

    // The same file, as a backend would post it with the Secret Key.
    const [header, ...lines] = CSV.trimEnd().split('\n').map((line) => line.split(','));
    const rows = lines.map((cells) => Object.fromEntries(header!.map((label, column) => [label.toLowerCase(), cells[column]])));
    const refused = await call(h, 'POST', '/v1/imports', { key: env.secretKey, body: { meta: { schemaId: templateId }, rows } });
    assert.equal(refused.status, 422);
    const { error } = await json(refused);
    assert.equal(error.code, 'validation_failed');
    assert.deepEqual(
      error.errors.map((item: { rowIndex: number; key: string; message: string }) => ({ row: item.rowIndex, key: item.key, message: item.message })),
      inPage.map(({ row, key, message }) => ({ row, key, message })),
    );

    // Fixed in the page (the enum from the template's options), the server takes it.
    const choice = await openCell(page, 1, 'country');
    assert.deepEqual(await choice.evaluate((select: any) => [...select.options].map((option: any) => option.textContent)), ['Spain', 'Germany (DE)', 'France (FR)']);
    await choice.select('FR');
    await reviewChecked(page);
    await typeInCell(page, 1, 'email', 'bob@example.com');
    await typeInCell(page, 1, 'born', '04/03/2025');
    await typeInCell(page, 1, 'phone', '+33 1 23 45 67 89');
    assert.deepEqual(await shownProblems(page), []);
    await act(page, 'submit');
    const done = await completed(page);
    assert.deepEqual(await storedRows(done.importId), [
      { email: 'ada@example.com', country: 'DE', born: '2025-04-03', phone: '+49301234567' },
      { email: 'bob@example.com', country: 'FR', born: '2025-03-04', phone: '+33123456789' },
    ]);
  });

  it('reads XLSX dates and times exactly: 09:30 stays 09:30:00, a midnight in a date-time column stays a date-time', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Visits');
    sheet.columns = [
      { header: 'When', key: 'when', style: { numFmt: 'yyyy-mm-dd hh:mm' } },
      { header: 'Day', key: 'day', style: { numFmt: 'dd/mm/yyyy' } },
      { header: 'Time', key: 'time', style: { numFmt: 'hh:mm:ss' } },
      { header: 'Zip', key: 'zip' },
    ];
    // Serial 1 is 1900-01-01 in Excel (exceljs writes that Date as 2: it skips Excel's 29 February 1900).
    sheet.addRow({ when: new Date(Date.UTC(2025, 2, 4, 9, 30)), day: new Date(Date.UTC(2025, 2, 4)), time: 9.5 / 24, zip: '00123' });
    sheet.addRow({ when: new Date(Date.UTC(2025, 2, 5)), day: 1, time: 0, zip: '01000' });
    sheet.addRow({ when: new Date(Date.UTC(2025, 2, 6, 17, 45, 30, 250)), day: new Date(Date.UTC(2024, 1, 29)), time: (13 + 1 / 60) / 24, zip: '99999' });
    const target = file('visits.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    const schema = {
      fields: [
        { key: 'when', label: 'When', type: 'datetime' },
        { key: 'day', label: 'Day', type: 'date' },
        { key: 'time', label: 'Time', pattern: '^\\d{2}:\\d{2}:\\d{2}$' },
        { key: 'zip', label: 'Zip', pattern: '^\\d{5}$' },
      ],
    };
    const { summary } = await review('visits', schema, target);
    assert.match(summary, /All 3 rows are valid/);
    const texts = await page.$$eval(`${IN} [role=gridcell] .text`, (cells: any[]) => cells.map((cell) => cell.textContent));
    assert.deepEqual(texts, [
      '2025-03-04T09:30:00', '2025-03-04', '09:30:00', '00123',
      '2025-03-05T00:00:00', '1900-01-01', '00:00:00', '01000',
      '2025-03-06T17:45:30.250', '2024-02-29', '13:01:00', '99999',
    ]);
    assert.equal(await storedNote(page, 0, 'when'), '→ stored as 2025-03-04T09:30:00.000Z');
    await act(page, 'submit');
    const done = await completed(page);
    assert.deepEqual(await storedRows(done.importId), [
      { when: '2025-03-04T09:30:00.000Z', day: '2025-03-04', time: '09:30:00', zip: '00123' },
      { when: '2025-03-05T00:00:00.000Z', day: '1900-01-01', time: '00:00:00', zip: '01000' },
      { when: '2025-03-06T17:45:30.250Z', day: '2024-02-29', time: '13:01:00', zip: '99999' },
    ]);
    await waitIn(page, '[data-action="restart"]');
  });

  it('fixes in bulk: only rows with problems, find and replace in a column, apply a fix to all, skip the rest as discarded', async () => {
    const lines = ['Name,Country,Born'];
    for (let i = 0; i < 2000; i++) lines.push(`${i % 500 === 7 ? '' : `Person ${i}`},${i % 100 === 3 ? 'Frnce' : i % 2 ? 'France' : 'Germany'},${i % 100 === 5 ? '13/25/2020' : '12/25/2020'}`);
    const schema = {
      fields: [
        { key: 'name', label: 'Name', required: true },
        { key: 'country', label: 'Country', type: 'enum', options: ['France', 'Germany'] },
        { key: 'born', label: 'Born', type: 'date', formats: ['MM/DD/YYYY'] },
      ],
    };
    const { summary } = await review('bulk', schema, file('bulk.csv', `${lines.join('\n')}\n`));
    assert.match(summary, /^44 rows have problems/);
    assert.ok((await drawnRows(page)).length < 40, 'only the rows in sight are drawn');

    await clickControl(page, 'only-problems');
    await page.waitForFunction(() => document.querySelector('importd-importer').shadowRoot.querySelector('.rows [data-row]')?.dataset.row === '3', { polling: 50 });
    const shown = await drawnRows(page);
    assert.deepEqual(shown.slice(0, 4).map((row) => row.row), [3, 5, 7, 103]);
    assert.ok(shown.every((row) => row.problem), 'every drawn row has a problem');

    await page.$eval(`${IN} details.replace`, (details: any) => (details.open = true));
    await page.select(`${IN} [data-grid="replace-column"]`, '1');
    await page.type(`${IN} [data-grid="find"]`, 'Frnce');
    await page.type(`${IN} [data-grid="replace-with"]`, 'France');
    await clickControl(page, 'replace');
    await page.waitForFunction(() => /^Replaced/.test(document.querySelector('importd-importer').shadowRoot.querySelector('[data-summary]').textContent), { polling: 50 });
    assert.match(await reviewChecked(page), /^Replaced in 20 cells\. 24 rows have problems/);

    await typeInCell(page, 5, 'born', '12/24/2020');
    const offer = await waitIn(page, '[data-apply-all]:not([hidden])');
    assert.equal(await offer.evaluate((box: any) => box.querySelector('span').textContent), '19 other cells of Born hold “13/25/2020”.');
    await clickControl(page, 'apply-all');
    await page.waitForFunction(() => /^4 rows/.test(document.querySelector('importd-importer').shadowRoot.querySelector('[data-summary]').textContent), { polling: 50 });
    assert.deepEqual((await drawnRows(page)).map((row) => row.row), [7, 507, 1007, 1507]);

    await clickControl(page, 'skip-invalid');
    assert.match(await reviewChecked(page), /^4 rows with problems will be skipped/);
    const submit = await waitIn(page, '[data-action="submit"]:not([disabled])');
    assert.match(await submit.evaluate((button: any) => button.textContent), /1,?996 rows/);
    await submit.click();
    const done = await completed(page);
    assert.equal(done.rowCount, 1996);
    const detail = await json(await call(h, 'GET', `/v1/imports/${done.importId}`, { key: env.secretKey }));
    assert.deepEqual(detail.meta.clientCounts, { totalRows: 2000, validRows: 1996, erroredRows: 4, discardedRows: 4 });
    assert.equal(detail.meta.counts.validRows, 1996);
    const rows = await storedRows(done.importId);
    assert.deepEqual(rows.slice(3, 6), [
      { name: 'Person 3', country: 'France', born: '2020-12-25' },
      { name: 'Person 4', country: 'Germany', born: '2020-12-25' },
      { name: 'Person 5', country: 'France', born: '2020-12-24' },
    ]);
    assert.equal(rows[7].name, 'Person 8', 'row 7 (no name) was skipped');
  });

  it('draws the rows in sight of 200 000, down to the last one (the scroll bar is scaled past the browser limit)', async () => {
    const lines = ['Name'];
    for (let i = 0; i < 200_000; i++) lines.push(`Person ${i}`);
    await review('many', { fields: [{ key: 'name', label: 'Name', required: true }] }, file('many.csv', `${lines.join('\n')}\n`));
    await page.$eval(`${IN} [data-grid-viewport]`, (viewport: any) => (viewport.scrollTop = viewport.scrollHeight));
    await page.waitForFunction(() => [...document.querySelector('importd-importer').shadowRoot.querySelectorAll('.rows [data-row]')].some((row: any) => row.dataset.row === '199999'), { polling: 50 });
    const drawn = await drawnRows(page);
    assert.ok(drawn.length < 40, `${drawn.length} rows drawn`);
    const last = await page.$eval(`${IN} .rows [data-row="199999"]`, (row: any) => {
      const box = row.getBoundingClientRect();
      const viewport = row.closest('[data-grid-viewport]').getBoundingClientRect();
      return { text: row.querySelector('.text').textContent, inSight: box.bottom <= viewport.bottom + 1 && box.top >= viewport.top };
    });
    assert.deepEqual(last, { text: 'Person 199999', inSight: true });
  });
});
