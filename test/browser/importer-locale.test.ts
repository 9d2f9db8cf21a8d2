import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { de } from '../../src/embed/i18n/de';
import { en } from '../../src/embed/i18n/en';
import { createTemplate } from '../../src/services/templates';
import { chromiumSkipReason } from '../helpers/chromium';
import { act, completed, IN, mountImporter, pickFile, waitIn } from './importer-page';
import { startImporterFixture, type ImporterFixture } from './importer-fixture';
import { reviewChecked, shownProblems, typeInCell } from './review-page';

const TEMPLATE = {
  key: 'kunden',
  schema: {
    fields: [
      { key: 'name', label: 'Name', required: true },
      { key: 'email', label: 'E-Mail', type: 'email' },
      { key: 'status', label: 'Status', type: 'enum', options: [{ value: 'active', label: 'Aktiv', alternatives: ['Enabled'] }, { value: 'paused', label: 'Pausiert' }] },
      { key: 'since', label: 'Kunde seit', type: 'date', formats: ['DD/MM/YYYY', 'MM/DD/YYYY'] },
    ],
  },
};

/** The texts of every message of a table, without parameters: the English ones must not show in German. */
function fragments(table: Record<string, string | Record<string, string>>): string[] {
  return Object.values(table)
    .flatMap((message) => (typeof message === 'string' ? [message] : Object.values(message)))
    .flatMap((text) => text.split(/\{\w+\}/))
    .map((text) => text.trim().replace(/^[\s,.:;()—…-]+|[\s,.:;()—…-]+$/g, ''))
    .filter((text) => text.length >= 3 && /[a-z]/i.test(text));
}
// English words German uses as well (`vor dem Import`): not evidence of a string left untranslated.
const ALSO_GERMAN = ['Import'];
const ENGLISH = [...new Set(fragments(en as never))].filter((text) => !ALSO_GERMAN.includes(text));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const englishIn = (shown: string) => ENGLISH.filter((text) => new RegExp(`(^|[^\\p{L}])${escape(text)}($|[^\\p{L}])`, 'u').test(shown));

describe('<importd-importer locale="de"> in headless Chromium', { skip: chromiumSkipReason() }, () => {
  let f: ImporterFixture;
  let templateId: string;
  const shown: string[] = [];

  /** Everything the element shows now: its text (not its style), option texts, labels for assistive technology. */
  const collect = async () => {
    shown.push(
      await f.page.$eval('importd-importer', (element: any) =>
        [...element.shadowRoot.children]
          .filter((node: any) => node.tagName !== 'STYLE')
          .flatMap((node: any) => [node.textContent, ...[...node.querySelectorAll('[aria-label],[title],[placeholder]')].map((n: any) => n.getAttribute('aria-label') ?? n.title ?? n.placeholder)])
          .join('\n'),
      ),
    );
  };

  before(async () => {
    f = await startImporterFixture();
    templateId = (await createTemplate(f.h.ctx, f.env.accountId, TEMPLATE)).id;
  });
  after(async () => {
    await f?.close();
  });

  it('finds the English words it looks for in the English table', () => {
    assert.ok(ENGLISH.length > 80, `${ENGLISH.length} fragments`);
    assert.deepEqual(englishIn('Back to the start, Zurück'), ['Back']);
    // The German table itself has no English fragment left (what the steps below may not show).
    assert.deepEqual(englishIn(fragments(de as never).join('\n')), []);
  });

  it('shows every step in German, numbers and plurals by Intl (1.234 Zeilen)', async () => {
    await f.mount(templateId, { locale: 'de' });
    await waitIn(f.page, 'input[type=file]');
    await collect();
    const lines = ['Kundenexport vom 31.01.2026', 'Name,E-Mail,Status,Kunde seit,Notiz'];
    // Row 5's e-mail is invalid: the review grid shows the rule's message in German.
    for (let i = 0; i < 1234; i += 1) lines.push(`Person ${i},${i === 5 ? 'p5@' : `p${i}@example.com`},${i % 2 ? 'Enabled' : 'ruht'},03/04/2025,x`);
    await pickFile(f.page, f.file('kunden.csv', `${lines.join('\n')}\n`));
    await waitIn(f.page, 'tr.header[data-header-row="1"]');
    await f.page.select(`${IN} select[data-field="email"]`, '0');
    await waitIn(f.page, 'select[data-field="email"][aria-invalid="true"]');
    await collect();
    await f.page.select(`${IN} select[data-field="email"]`, '1');
    await waitIn(f.page, 'button[data-action="confirm-mapping"]:not([disabled])');
    await collect();
    await f.screenshot('de');
    await act(f.page, 'confirm-mapping');
    await waitIn(f.page, 'select[data-date-field="since"]');
    await collect();
    await f.page.select(`${IN} select[data-date-field="since"]`, 'DD/MM/YYYY');
    await f.page.select(`${IN} select[data-enum-field="status"][data-value="ruht"]`, 'paused');
    await waitIn(f.page, 'button[data-action="confirm-values"]:not([disabled])');
    await collect();
    await act(f.page, 'confirm-values');
    assert.match(await reviewChecked(f.page), /^1 Zeile hat Fehler/);
    assert.deepEqual(await shownProblems(f.page), [{ row: 5, key: 'email', text: 'p5@', message: 'E-Mail muss eine E-Mail-Adresse sein' }]);
    await collect();
    await typeInCell(f.page, 5, 'email', 'p5@example.com');
    const submit = await waitIn(f.page, 'button[data-action="submit"]:not([disabled])');
    assert.equal(await submit.evaluate((button: any) => button.textContent), '1.234 Zeilen importieren');
    await collect();
    await act(f.page, 'submit');
    const done = await completed(f.page);
    assert.equal(done.rowCount, 1234);
    await collect();
    const { rows } = await f.stored(done.importId);
    assert.deepEqual(rows[0], { name: 'Person 0', email: 'p0@example.com', status: 'paused', since: '2025-04-03' });

    await mountImporter(f.page, f.customer.origin, { server: f.server.url, publicKey: f.env.publicKey, sessionToken: 'not-a-token', templateId, locale: 'de' });
    await f.page.waitForFunction(() => (globalThis as any).document.querySelector('importd-importer').shadowRoot.querySelector('[role=alert]').textContent !== '');
    await collect();
    const all = shown.join('\n');
    for (const german of ['Tabelle importieren', 'Spaltennamen', 'Vorschlag, zu', 'Zum Beispiel', 'ist auch für', 'Kunde seit: Datumsangaben', 'So gelesen ist 03/04/2025 der 3. April 2025', 'Status: 2 verschiedene Werte', '1.234 Zeilen importiert.', 'Anfrage-ID', 'E-Mail muss eine E-Mail-Adresse sein']) {
      assert.ok(all.includes(german), `shows ${german}`);
    }
    assert.deepEqual(englishIn(all), []);
  });

  it('takes the browser language when the element names none, and English for a language it lacks', async () => {
    // A string, not a function: tsx would name the getter through a helper the page does not have.
    await f.page.evaluateOnNewDocument("Object.defineProperty(navigator, 'languages', { get() { return ['fr-CA', 'en']; } })");
    await f.mount(templateId);
    assert.match(await (await waitIn(f.page, 'h2')).evaluate((h: any) => h.textContent), /^Importer un tableur$/);
    await f.mount(templateId, { locale: 'pt-BR' });
    assert.match(await (await waitIn(f.page, 'h2')).evaluate((h: any) => h.textContent), /^Importer un tableur$/, 'pt has no table: the browser language');
    await f.mount(templateId, { locale: 'es' });
    assert.match(await (await waitIn(f.page, 'h2')).evaluate((h: any) => h.textContent), /^Importar una hoja de cálculo$/);
  });
});
