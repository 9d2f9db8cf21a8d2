import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTemplate } from '../../src/services/templates';
import { chromiumSkipReason } from '../helpers/chromium';
import { createTestEnvironment } from '../helpers/harness';
import { act, chosenMapping, completed, IN, pickFile, shownText, stepsSeen, waitIn } from './importer-page';
import { startImporterFixture, type ImporterFixture } from './importer-fixture';

// The steps before the review (header row, mapping with evidence, values and dates) and the element's API.
const ORDERS = {
  key: 'orders',
  schema: {
    extraColumns: 'keep',
    fields: [
      { key: 'name', label: 'Name', required: true },
      { key: 'email', label: 'Email', type: 'email' },
      { key: 'status', label: 'Status', type: 'enum', options: [{ value: 'active', label: 'Active', alternatives: ['enabled'] }, { value: 'paused', label: 'Paused' }] },
      { key: 'joined', label: 'Joined', type: 'date', formats: ['DD/MM/YYYY', 'MM/DD/YYYY'] },
    ],
  },
};

describe('<importd-importer> steps before the review, in headless Chromium', { skip: chromiumSkipReason() }, () => {
  let f: ImporterFixture;
  let templateId: string;

  before(async () => {
    f = await startImporterFixture();
    templateId = (await createTemplate(f.h.ctx, f.env.accountId, ORDERS)).id;
  });
  after(async () => {
    await f?.close();
  });

  /** Submits from the review and returns the stored import. */
  const submitted = async () => {
    await act(f.page, 'submit');
    const done = await completed(f.page);
    return { done, ...(await f.stored(done.importId)) };
  };
  const disabled = (action: string) => f.page.$eval(`${IN} button[data-action="${action}"]`, (button: any) => button.disabled);

  it('detects the header row below two title lines, and takes the row the end-user clicks', async () => {
    await f.mount(templateId);
    await waitIn(f.page, 'input[type=file]');
    await f.screenshot('pick');
    await pickFile(f.page, f.file('crm.csv', 'Customer export\nGenerated on 2026-01-31\nName,Email\nAda,ada@example.com\nAlan,alan@example.com\n'));
    await waitIn(f.page, 'tr.header[data-header-row="2"]');
    assert.deepEqual(await chosenMapping(f.page), { name: 'Name', email: 'Email', status: '— not imported —', joined: '— not imported —' });
    await f.screenshot('header-row');
    // A wrong pick: the title line as header maps nothing, and the required Name blocks the next step.
    await f.page.click(`${IN} tr[data-header-row="0"]`);
    await waitIn(f.page, 'tr.header[data-header-row="0"]');
    assert.equal(await disabled('confirm-mapping'), true);
    assert.match(await shownText(f.page), /Required: choose the column that holds it/);
    await f.page.click(`${IN} tr[data-header-row="2"]`);
    await waitIn(f.page, 'tr.header[data-header-row="2"]');
    await act(f.page, 'confirm-mapping');
    const { rows, meta } = await submitted();
    assert.deepEqual(rows, [
      { name: 'Ada', email: 'ada@example.com' },
      { name: 'Alan', email: 'alan@example.com' },
    ]);
    assert.equal(meta.sheet.headerRow, 2);
  });

  it('shows each suggestion with its confidence and samples, flags a column used twice, keeps an extra column', async () => {
    await f.mount(templateId);
    await pickFile(f.page, f.file('people.csv', 'Full name,E-mail,Notes\nAda,ada@example.com,first\nAlan,alan@example.com,second\nGrace,grace@example.com,third\nKatherine,kj@example.com,\n'));
    await waitIn(f.page, 'select[data-field="email"]');
    const notes = await f.page.$eval(`${IN} select[data-field="name"]`, (select: any) => select.parentElement.querySelector('.notes').textContent);
    assert.match(notes, /Suggested, \d+% sure/);
    assert.match(notes, /For example: “Ada” · “Alan” · “Grace”/);
    await f.screenshot('mapping');
    await f.page.select(`${IN} select[data-field="email"]`, '0');
    await waitIn(f.page, 'select[data-field="email"][aria-invalid="true"]');
    assert.match(await shownText(f.page), /The column Full name is also chosen for Name/);
    assert.match(await shownText(f.page), /Your choice/);
    assert.equal(await disabled('confirm-mapping'), true);
    await f.page.select(`${IN} select[data-field="email"]`, '1');
    await waitIn(f.page, 'button[data-action="confirm-mapping"]:not([disabled])');
    await f.page.click(`${IN} input[data-keep-column="2"]`);
    await act(f.page, 'confirm-mapping');
    const { rows } = await submitted();
    assert.deepEqual(rows[0], { name: 'Ada', email: 'ada@example.com', Notes: 'first' });
    assert.deepEqual(rows[3], { name: 'Katherine', email: 'kj@example.com', Notes: '' });
  });

  it('re-reads the preview at once when the delimiter is chosen', async () => {
    await f.mount(templateId);
    await pickFile(f.page, f.file('odd.csv', 'Name;Email\nAda;ada@example.com\n'));
    await waitIn(f.page, 'select#delimiter');
    await f.page.select(`${IN} select#delimiter`, ',');
    await f.page.waitForFunction((inner: string) => (globalThis as any).document.querySelector('importd-importer').shadowRoot.querySelector(inner)?.value === ',', { polling: 50 }, 'select#delimiter');
    await waitIn(f.page, 'tr.header');
    const header = await f.page.$eval(`${IN} tr.header`, (row: any) => [...row.querySelectorAll('td')].map((cell: any) => cell.textContent));
    assert.deepEqual(header, ['Name;Email'], 'one column: the semicolons are now text');
  });

  it('detects a MM/DD/YYYY column from a value only it reads, and stores ISO dates', async () => {
    await f.mount(templateId);
    await pickFile(f.page, f.file('us-dates.csv', 'Name,Joined\nAda,03/04/2025\nAlan,04/13/2025\nGrace,12/31/2024\n'));
    await act(f.page, 'confirm-mapping');
    const format = await waitIn(f.page, 'select[data-date-field="joined"]');
    assert.equal(await format.evaluate((select: any) => select.value), 'MM/DD/YYYY');
    assert.match(await shownText(f.page), /Detected from the values: 03\/04\/2025 is March 4, 2025/);
    await f.screenshot('values');
    await act(f.page, 'confirm-values');
    const { rows } = await submitted();
    assert.deepEqual(rows.map((row: any) => row.joined), ['2025-03-04', '2025-04-13', '2024-12-31']);
  });

  it('asks for the format when no value decides it', async () => {
    await f.mount(templateId);
    await pickFile(f.page, f.file('ambiguous.csv', 'Name,Joined\nAda,03/04/2025\nAlan,05/06/2025\n'));
    await act(f.page, 'confirm-mapping');
    await waitIn(f.page, 'select[data-date-field="joined"]');
    assert.equal(await disabled('confirm-values'), true);
    assert.match(await shownText(f.page), /can be read more than one way \(03\/04\/2025\)/);
    await f.page.select(`${IN} select[data-date-field="joined"]`, 'DD/MM/YYYY');
    await act(f.page, 'confirm-values');
    const { rows } = await submitted();
    assert.deepEqual(rows.map((row: any) => row.joined), ['2025-04-03', '2025-06-05']);
  });

  it("maps an enum column's values, and suggests them on the next import of the same account, not of another", async () => {
    const csv = 'Name,Status\nAda,Enabled\nAlan,on hold\nGrace,on hold\n';
    const optionOf = (value: string) => f.page.$eval(`${IN} select[data-enum-field="status"][data-value="${value}"]`, (select: any) => select.value);
    await f.mount(templateId, { endUserId: 'alice' });
    await pickFile(f.page, f.file('status.csv', csv));
    await act(f.page, 'confirm-mapping');
    await waitIn(f.page, 'select[data-enum-field="status"]');
    assert.equal(await optionOf('Enabled'), 'active', "an option's alternative");
    assert.equal(await optionOf('on hold'), '', 'nothing suggests it yet');
    assert.match(await shownText(f.page), /Status: 2 different values/);
    await f.page.select(`${IN} select[data-enum-field="status"][data-value="on hold"]`, 'paused');
    await f.screenshot('enum-values');
    await act(f.page, 'confirm-values');
    // Back from the review: the mapping and the values step find the file as read, not the options sent.
    await act(f.page, 'back');
    await act(f.page, 'confirm-mapping');
    await waitIn(f.page, 'select[data-enum-field="status"]');
    assert.equal(await optionOf('on hold'), '');
    await f.page.select(`${IN} select[data-enum-field="status"][data-value="on hold"]`, 'paused');
    await act(f.page, 'confirm-values');
    const { rows, meta } = await submitted();
    assert.deepEqual(rows.map((row: any) => row.status), ['active', 'paused', 'paused']);
    assert.deepEqual(meta.valueMapping, { status: { 'on hold': 'paused' } });

    await f.mount(templateId, { endUserId: 'alice' });
    await pickFile(f.page, f.file('status.csv', csv));
    await act(f.page, 'confirm-mapping');
    await waitIn(f.page, 'select[data-enum-field="status"]');
    assert.equal(await optionOf('on hold'), 'paused', 'learned from the last import of this account');
    assert.match(await shownText(f.page), /learned from earlier imports/);

    const stranger = await createTestEnvironment(f.h, { account: 'another-account', origins: [f.customer.origin] });
    const theirs = (await createTemplate(f.h.ctx, stranger.accountId, ORDERS)).id;
    await f.mount(theirs, { env: stranger });
    await pickFile(f.page, f.file('status.csv', csv));
    await act(f.page, 'confirm-mapping');
    await waitIn(f.page, 'select[data-enum-field="status"]');
    assert.equal(await optionOf('on hold'), '', "another account's end-users never see it");
  });

  it('is driven from the page: open(file), reset(), importd:step and importd:error; no console error without a theme', async () => {
    await f.mount(templateId);
    const error = await f.page.evaluate(() => {
      const { document, File } = globalThis as any;
      const element = document.querySelector('importd-importer');
      const failed = new Promise((resolve) => element.addEventListener('importd:error', (event: any) => resolve(event.detail)));
      void element.open(new File(['%PDF'], 'scan.pdf', { type: 'application/pdf' }));
      return failed;
    });
    assert.deepEqual(error, { message: 'Only .csv, .tsv, .txt and .xlsx files can be imported.' });
    await f.page.evaluate(() => {
      const { document, File } = globalThis as any;
      return document.querySelector('importd-importer').open(new File(['Name\nAda\n'], 'api.csv', { type: 'text/csv' }));
    });
    await waitIn(f.page, 'button[data-action="confirm-mapping"]');
    await f.page.evaluate(() => (globalThis as any).document.querySelector('importd-importer').reset());
    await waitIn(f.page, 'input[type=file]');
    await f.page.evaluate(() => {
      const { document, File } = globalThis as any;
      return document.querySelector('importd-importer').open(new File(['Name\nAda\n'], 'api.csv', { type: 'text/csv' }));
    });
    await act(f.page, 'confirm-mapping');
    assert.equal(await (await waitIn(f.page, 'button[data-action="submit"]')).evaluate((button: any) => button.textContent), 'Import 1 row');
    await act(f.page, 'submit');
    assert.equal((await completed(f.page)).rowCount, 1);
    assert.match(await shownText(f.page), /Imported 1 row\./);
    await f.screenshot('done');
    assert.deepEqual(await stepsSeen(f.page), ['pick', 'mapping', 'pick', 'mapping', 'review', 'submitting', 'done']);
    assert.deepEqual(f.consoleErrors, []);
  });
});
