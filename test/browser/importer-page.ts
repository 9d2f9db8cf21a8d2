import type { ElementHandle, Page } from 'puppeteer-core';

// Page globals, used only inside page.evaluate callbacks (the test tsconfig has no DOM library).
declare const document: any;
declare const window: any;

/** Where the element lives: its attributes and the importd server serving the script. */
export interface Mount {
  server: string;
  publicKey: string;
  sessionToken: string;
  templateId: string;
  /** The `locale` attribute, when set. */
  locale?: string;
}

/** The element's shadow root, for selectors (`>>>` pierces it). */
export const IN = 'importd-importer >>>';

/**
 * Opens `origin`, loads /embed/importer.js from importd and adds the element; `importd:complete` is recorded,
 * and every `importd:step` in `window.steps`.
 */
export async function mountImporter(page: Page, origin: string, mount: Mount): Promise<void> {
  await page.goto(`${origin}/`);
  await page.addScriptTag({ url: `${mount.server}/embed/importer.js` });
  await page.evaluate((attributes: Mount) => {
    const element = document.createElement('importd-importer');
    element.setAttribute('server', attributes.server);
    element.setAttribute('public-key', attributes.publicKey);
    element.setAttribute('session-token', attributes.sessionToken);
    element.setAttribute('template-id', attributes.templateId);
    if (attributes.locale) element.setAttribute('locale', attributes.locale);
    window.steps = [];
    element.addEventListener('importd:step', (event: any) => window.steps.push(event.detail.step));
    window.completed = new Promise((resolve) => element.addEventListener('importd:complete', (event: any) => resolve(event.detail)));
    document.body.append(element);
  }, mount);
}

/**
 * Waits for `selector` inside the element's shadow root. Polled: page.waitForSelector watches the document's
 * mutations, which do not include those inside a shadow root.
 */
export async function waitIn(page: Page, selector: string): Promise<ElementHandle> {
  await page.waitForFunction((inner: string) => document.querySelector('importd-importer')?.shadowRoot?.querySelector(inner), { polling: 50, timeout: 60_000 }, selector);
  return (await page.$(`${IN} ${selector}`)) as ElementHandle;
}

/** Picks a file with the element's plain file input. */
export async function pickFile(page: Page, file: string): Promise<void> {
  await (await waitIn(page, 'input[type=file]')).uploadFile(file);
}

/** Clicks a control by its data-action name once it is enabled. */
export async function act(page: Page, action: string): Promise<void> {
  await (await waitIn(page, `button[data-action="${action}"]:not([disabled])`)).click();
}

/** Resolves with the `importd:complete` detail. */
export function completed(page: Page): Promise<{ importId: string; rowCount: number }> {
  return page.evaluate(() => window.completed);
}

/** The text of the element's alert box (errors). */
export function alertText(page: Page): Promise<string> {
  return page.$eval('importd-importer', (element: any) => element.shadowRoot.querySelector('[role=alert]').textContent);
}

/** The header label each field's select has chosen, by field key. */
export function chosenMapping(page: Page): Promise<Record<string, string>> {
  return page.$$eval(`${IN} select[data-field]`, (selects: any[]) =>
    Object.fromEntries(selects.map((select) => [select.dataset.field, select.selectedOptions[0].textContent])),
  );
}

/** The `importd:step` names dispatched since the element was mounted. */
export function stepsSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => window.steps);
}

/** The text of the element's shadow root. */
export function shownText(page: Page): Promise<string> {
  return page.$eval('importd-importer', (element: any) => element.shadowRoot.textContent);
}
