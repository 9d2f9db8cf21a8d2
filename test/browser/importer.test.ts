import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import writeExcelFile from 'write-excel-file/node';
import { buildEmbed } from '../../scripts/embed-build.mjs';
import { createLogger } from '../../src/core/logger';
import { createApp } from '../../src/http/app';
import { issueSession } from '../../src/services/sessions';
import { createTemplate } from '../../src/services/templates';
import { validTheme } from '../helpers/fixtures';
import { chromiumSkipReason, launchChromium, servePage, type Chromium, type PageServer } from '../helpers/chromium';
import { call, createHarness, createTestEnvironment, json, type Harness, type TestEnvironment } from '../helpers/harness';
import { startLiveServer, type LiveServer } from '../helpers/live-server';
import { act, alertText, chosenMapping, completed, IN, mountImporter, pickFile, waitIn } from './importer-page';
import { reviewChecked, shownProblems, typeInCell } from './review-page';

const FIELDS = [
  { key: 'name', label: 'Name', required: true },
  { key: 'email', label: 'Email', type: 'email', required: true },
  { key: 'zip', label: 'Zip code' },
  { key: 'phone', label: 'Phone' },
  { key: 'born', label: 'Birth date', type: 'date' },
];
const DOCS = path.resolve(__dirname, '..', '..', 'docs', 'images');

describe('<importd-importer> in headless Chromium', { skip: chromiumSkipReason() }, () => {
  let h: Harness;
  let env: TestEnvironment;
  let server: LiveServer;
  let chromium: Chromium;
  let customer: PageServer;
  let stranger: PageServer;
  let templateId: string;
  let page: Page;
  let dir: string;
  const appLogs: string[] = [];

  const file = (name: string, bytes: Buffer | string) => {
    const target = path.join(dir, name);
    writeFileSync(target, bytes);
    return target;
  };
  const mount = async (origin = customer.origin) => {
    const { sessionToken } = await issueSession(h.ctx, env, { endUserId: 'end-user-1', templateId });
    await mountImporter(page, origin, { server: server.url, publicKey: env.publicKey, sessionToken, templateId });
  };
  /** The stored rows and meta of an import, through the Secret Key API. */
  const stored = async (importId: string) => {
    const rows = await json(await call(h, 'GET', `/v1/imports/${importId}/rows?limit=100`, { key: env.secretKey }));
    const detail = await json(await call(h, 'GET', `/v1/imports/${importId}`, { key: env.secretKey }));
    return { rows: rows.data.map((row: { data: unknown }) => row.data), meta: detail.meta };
  };
  /** Submits and returns the `importd:complete` detail with the stored import. */
  const submitted = async () => {
    await act(page, 'submit');
    const done = await completed(page);
    return { done, ...(await stored(done.importId)) };
  };
  /** Picks the file, confirms the suggested mapping, submits, and returns the stored import. */
  const importFile = async (target: string) => {
    await pickFile(page, target);
    await act(page, 'confirm-mapping');
    return submitted();
  };

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'importd-browser-'));
    h = await createHarness();
    customer = await servePage();
    stranger = await servePage();
    env = await createTestEnvironment(h, { origins: [customer.origin] });
    templateId = (await createTemplate(h.ctx, env.accountId, { key: 'contacts', schema: { fields: FIELDS, unknownMember: true } })).id;
    assert.equal((await call(h, 'POST', '/v1/themes', { key: env.secretKey, body: validTheme({ lightColors: { ...validTheme().lightColors, primary: '#4f46e5', base: '#ffffff', baseContent: '#1f2937', neutral: '#6b7280', primaryContent: '#ffffff', errorBg: '#fee2e2', errorContent: '#7f1d1d', error: '#dc2626', warningBg: '#fef3c7', warningContent: '#78350f', successBg: '#dcfce7', successContent: '#14532d', accent: '#f59e0b' } }) })).status, 201);
    // The script is bundled from the current source here: test:browser does not run the build first.
    const script = path.join(dir, 'importer.js');
    await buildEmbed(script);
    server = await startLiveServer({ ctx: h.ctx, app: createApp({ ctx: h.ctx, logger: createLogger('info', (line) => appLogs.push(line)), embedSource: { file: script } }) });
    chromium = await launchChromium();
    page = await chromium.browser.newPage();
    await page.setViewport({ width: 820, height: 900 });
  });
  after(async () => {
    h?.ctx.themeEvents.closeAll();
    await chromium?.close();
    await server?.close();
    await customer?.close();
    await stranger?.close();
    h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes a CSV from file pick to a stored import with the mapped keys, every cell kept as written', async () => {
    await mount();
    const csv = 'Name,E-mail,Zip,Phone,Birth date,Notes\nAda Lovelace,ada@example.com,00123,+44 20 7946 0958,1815-12-10,12345678901234567890\nAlan Turing,alan@example.com,02139,0049 170 1234567,1912-06-23,\n,,,,,\n';
    await pickFile(page, file('contacts.csv', csv));
    await waitIn(page, `[data-action="confirm-mapping"]`);
    assert.deepEqual(await chosenMapping(page), { name: 'Name', email: 'E-mail', zip: 'Zip', phone: 'Phone', born: 'Birth date' });
    mkdirSync(DOCS, { recursive: true });
    await act(page, 'confirm-mapping');
    await act(page, 'submit');
    const done = await completed(page);
    assert.equal(done.rowCount, 2);
    const { rows, meta } = await stored(done.importId);
    assert.deepEqual(rows, [
      { name: 'Ada Lovelace', email: 'ada@example.com', zip: '00123', phone: '+44 20 7946 0958', born: '1815-12-10' },
      { name: 'Alan Turing', email: 'alan@example.com', zip: '02139', phone: '0049 170 1234567', born: '1912-06-23' },
    ]);
    assert.deepEqual(meta.mapping, { name: 'Name', email: 'E-mail', zip: 'Zip', phone: 'Phone', born: 'Birth date' });
    assert.equal(meta.file.name, 'contacts.csv');
    assert.equal(meta.counts.totalRows, 2);
    assert.equal(meta.sheet.selectedSheetName, 'contacts.csv');
    assert.match(meta.sdkVersion, /^\d+\.\d+\.\d+$/);
    assert.equal(meta.schemaId, templateId);
    assert.equal(meta.sessionToken, undefined);
  });

  it('reads a Windows-1252 CSV separated by semicolons with accents intact, offering the charset choice', async () => {
    await mount();
    const text = 'Name;Email;Zip\r\nRenée Müller;renee@example.fr;01000\r\nJosé “Pepe” Ñúñez €;jose@example.es;08001\r\n';
    // Windows-1252 as Excel writes it: Latin-1 bytes, plus “ ” € in 0x80-0x9F.
    const cp1252 = Buffer.from([...text].map((char) => ({ '“': 0x93, '”': 0x94, '€': 0x80 })[char] ?? char.charCodeAt(0)));
    await pickFile(page, file('windows-1252.csv', cp1252));
    const charset = await waitIn(page, `select#charset`);
    assert.equal(await charset!.evaluate((select: any) => select.value), 'windows-1252');
    assert.match(await page.$eval('importd-importer', (element: any) => element.shadowRoot.textContent), /separated by semicolons/);
    await act(page, 'confirm-mapping');
    const { rows } = await submitted();
    assert.deepEqual(rows, [
      { name: 'Renée Müller', email: 'renee@example.fr', zip: '01000' },
      { name: 'José “Pepe” Ñúñez €', email: 'jose@example.es', zip: '08001' },
    ]);
  });

  it("reads Excel's UTF-16 \"Unicode text\" (BOM, tab-separated)", async () => {
    await mount();
    const text = 'Name\tEmail\tPhone\r\nZoë Ægir\tzoe@example.is\t+354 555 0101\r\n';
    const { rows } = await importFile(file('unicode.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])));
    assert.deepEqual(rows, [{ name: 'Zoë Ægir', email: 'zoe@example.is', phone: '+354 555 0101' }]);
  });

  it('takes a file dropped on the element, here separated by pipes', async () => {
    await mount();
    await waitIn(page, '[data-drop]');
    await page.evaluate(() => {
      const { document, DataTransfer, DragEvent, File } = globalThis as any;
      const zone = document.querySelector('importd-importer').shadowRoot.querySelector('[data-drop]');
      const transfer = new DataTransfer();
      transfer.items.add(new File(['Name|Email|Zip\nAda|ada@example.com|00123\n'], 'dropped.csv', { type: 'text/csv' }));
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });
    await act(page, 'confirm-mapping');
    const { rows, meta } = await submitted();
    assert.deepEqual(rows, [{ name: 'Ada', email: 'ada@example.com', zip: '00123' }]);
    assert.equal(meta.file.name, 'dropped.csv');
    assert.deepEqual(meta.encoding, { charset: 'utf-8', delimiter: '|' });
  });

  it('reads an XLSX: chooses the sheet, dates become ISO dates, zip codes keep their zeros', async () => {
    await mount();
    const header = ['Name', 'Email', 'Zip', 'Birth date'].map((value) => ({ value }));
    const people = [
      ['Grace Hopper', 'grace@example.com', '01234', new Date(Date.UTC(1906, 11, 9))],
      ['Katherine Johnson', 'kj@example.com', '00501', new Date(Date.UTC(1918, 7, 26))],
    ].map(([name, email, zip, born]) => [{ value: name }, { value: email }, { type: String, value: zip }, { type: Date, value: born, format: 'dd/mm/yyyy' }]);
    const buffer = await writeExcelFile([
      { sheet: 'Notes', data: [[{ value: 'nothing to import' }]] },
      { sheet: 'People', data: [header, ...people] as never },
    ]).toBuffer();
    await pickFile(page, file('people.xlsx', buffer));
    const sheet = await waitIn(page, `select#sheet`);
    await sheet!.select('1');
    await act(page, 'choose-sheet');
    await act(page, 'confirm-mapping');
    const { rows, meta } = await submitted();
    assert.deepEqual(rows, [
      { name: 'Grace Hopper', email: 'grace@example.com', zip: '01234', born: '1906-12-09' },
      { name: 'Katherine Johnson', email: 'kj@example.com', zip: '00501', born: '1918-08-26' },
    ]);
    assert.deepEqual(meta.sheet, { rowCount: 2, selectedSheetName: 'People', allSheetNames: ['Notes', 'People'], headerRow: 0 });
  });

  it('shows a wrong cell against the template, lets it be fixed, and stores the fixed value', async () => {
    await mount();
    await pickFile(page, file('wrong.csv', 'Name,Email,When\nAda,ada@example.com,2026-02-30x\nBob,not-an-email,2026-01-02\n'));
    // The suggested mapping is corrected by hand: "When" is the birth date.
    await waitIn(page, `select[data-field="born"]`);
    await page.select(`${IN} select[data-field="born"]`, '2');
    await act(page, 'confirm-mapping');
    assert.match(await reviewChecked(page), /2 rows have problems/);
    assert.equal(await page.$eval(`${IN} [data-action="submit"]`, (button: any) => button.disabled), true);
    // The messages are the server's rules (src/rules), run in the page.
    assert.deepEqual(await shownProblems(page), [
      { row: 0, key: 'born', text: '2026-02-30x', message: 'Birth date must be a date (YYYY-MM-DD)' },
      { row: 1, key: 'email', text: 'not-an-email', message: 'Email must be an e-mail address' },
    ]);
    await (await page.$('importd-importer'))!.screenshot({ path: path.join(DOCS, 'importer-review.png') });
    await typeInCell(page, 0, 'born', '2026-02-28');
    await typeInCell(page, 1, 'email', 'bob@example.com');
    assert.deepEqual(await shownProblems(page), []);
    const { rows } = await submitted();
    assert.deepEqual(rows, [
      { name: 'Ada', email: 'ada@example.com', born: '2026-02-28' },
      { name: 'Bob', email: 'bob@example.com', born: '2026-01-02' },
    ]);
  });

  it('restyles at once when the theme changes (GET /v1/themes/events), light or dark as the page prefers', async () => {
    await mount();
    const primaryBecomes = (color: string) =>
      page.waitForFunction((expected: string) => (globalThis as any).document.querySelector('importd-importer').style.getPropertyValue('--importd-primary') === expected, {}, color);
    await primaryBecomes('#4f46e5');
    const theme = validTheme({ lightColors: { ...validTheme().lightColors, primary: '#ff0000' }, darkColors: { ...validTheme().darkColors, primary: '#00ff00' } });
    assert.equal((await call(h, 'PUT', '/v1/themes', { key: env.secretKey, body: theme })).status, 200);
    await primaryBecomes('#ff0000');
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    await primaryBecomes('#00ff00');
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  });

  it('tells the end-user clearly when the page origin is not allowed', async () => {
    await mount(stranger.origin);
    await page.waitForFunction(() => (globalThis as any).document.querySelector('importd-importer').shadowRoot.querySelector('[role=alert]').textContent !== '');
    const text = await alertText(page);
    assert.match(text, new RegExp(`origin \\(${stranger.origin.replace(/[.:/]/g, '\\$&')}\\) is probably not in the allowed origins`));
  });

  it("shows the server's error message with its request id", async () => {
    await mountImporter(page, customer.origin, { server: server.url, publicKey: env.publicKey, sessionToken: 'not-a-token', templateId });
    await page.waitForFunction(() => (globalThis as any).document.querySelector('importd-importer').shadowRoot.querySelector('[role=alert]').textContent !== '');
    const text = await alertText(page);
    assert.match(text, /\(invalid_session\)/);
    const requestId = /Request id: (req_\S+)/.exec(text)?.[1];
    assert.ok(requestId, text);
    assert.ok(appLogs.some((line) => line.includes(requestId) && line.includes('"status":401')), 'the same id is in the server log');
  });

  it('works at 320 px wide and by keyboard alone', async () => {
    await page.setViewport({ width: 320, height: 700 });
    try {
      await mount();
      await pickFile(page, file('narrow.csv', 'Name,Email\nAda,ada@example.com\n'));
      await waitIn(page, `[data-action="confirm-mapping"]`);
      const overflow = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
      assert.ok(overflow <= 320, `the page scrolls sideways: ${overflow}px`);
      await page.screenshot({ path: path.join(DOCS, 'importer-320.png'), fullPage: true });
      // The confirm button has focus after the file is read; Enter and Space drive the rest.
      await page.keyboard.press('Enter');
      await waitIn(page, `[data-action="submit"]:not([disabled])`);
      const focused = await page.$eval('importd-importer', (element: any) => element.shadowRoot.activeElement?.dataset.action);
      assert.equal(focused, 'submit');
      await page.keyboard.press(' ');
      const done = await completed(page);
      assert.equal(done.rowCount, 1);
    } finally {
      await page.setViewport({ width: 820, height: 900 });
    }
  });

  it('takes a 100 000-row CSV from file pick to importd:complete (the time is printed)', async () => {
    await mount();
    const lines = ['Name,Email,Zip,Phone'];
    for (let index = 0; index < 100_000; index += 1) lines.push(`Person ${index},person${index}@example.com,${String(index % 100000).padStart(5, '0')},+1 555 ${String(index).padStart(7, '0')}`);
    const target = file('large.csv', `${lines.join('\n')}\n`);
    const started = Date.now();
    await pickFile(page, target);
    await act(page, 'confirm-mapping');
    // Upload progress: every value the progress bar shows while the NDJSON body is sent.
    await page.evaluate(() => {
      const { document, MutationObserver } = globalThis as any;
      const shown: number[] = ((globalThis as any).progressShown = []);
      new MutationObserver((records: any[]) => records.forEach((record) => shown.push(Number(record.target.getAttribute('value'))))).observe(
        document.querySelector('importd-importer').shadowRoot,
        { subtree: true, attributes: true, attributeFilter: ['value'] },
      );
    });
    await act(page, 'submit');
    const done = await completed(page);
    const seconds = (Date.now() - started) / 1000;
    const progress: number[] = await page.evaluate(() => (globalThis as any).progressShown);
    assert.equal(Math.max(...progress), 1, `progress shown: ${progress.join(', ')}`);
    console.log(`importer: 100 000-row CSV from file pick to importd:complete in ${seconds.toFixed(1)} s`);
    assert.equal(done.rowCount, 100_000);
    const detail = await json(await call(h, 'GET', `/v1/imports/${done.importId}`, { key: env.secretKey }));
    assert.equal(detail.meta.counts.totalRows, 100_000);
    const last = await json(await call(h, 'GET', `/v1/imports/${done.importId}/rows?limit=1&direction=desc`, { key: env.secretKey }));
    assert.deepEqual(last.data[0].data, { name: 'Person 99999', email: 'person99999@example.com', zip: '99999', phone: '+1 555 0099999' });
  });
});
