import type { Page } from 'puppeteer-core';
import { IN, waitIn } from './importer-page';

// Page globals, used only inside page.evaluate callbacks (the test tsconfig has no DOM library).
declare const document: any;

/** An invalid cell of the review grid as the end-user sees it: row (0-based), field key, text, the rule's message. */
export interface ShownProblem {
  row: number;
  key: string;
  text: string;
  message: string;
}

/** Waits until the review has checked the rows (its summary says how it went). */
export async function reviewChecked(page: Page): Promise<string> {
  await page.waitForFunction(
    () => /^(ok|warn)$/.test(document.querySelector('importd-importer')?.shadowRoot?.querySelector('[data-summary]')?.className ?? ''),
    { polling: 50, timeout: 120_000 },
  );
  return page.$eval(`${IN} [data-summary]`, (status: any) => status.textContent);
}

/** The invalid cells drawn in the grid, in row order. */
export function shownProblems(page: Page): Promise<ShownProblem[]> {
  return page.$$eval(`${IN} [role=gridcell][aria-invalid=true]`, (cells: any[]) =>
    cells.map((cell) => ({ row: Number(cell.dataset.row), key: cell.dataset.key, text: cell.querySelector('.text').textContent, message: cell.querySelector('[data-error]').textContent })),
  );
}

/** Opens a cell of the grid for editing and returns its editor (a text box, or a choice for an enum field). */
export async function openCell(page: Page, row: number, key: string) {
  // Clicked from inside the page: a scroll may redraw the rows between finding a cell and a mouse click on it.
  const cell = `[data-row="${row}"] [data-key="${key}"]`;
  await waitIn(page, cell);
  await page.evaluate((selector: string) => document.querySelector('importd-importer').shadowRoot.querySelector(selector).click(), cell);
  return waitIn(page, `[data-row="${row}"] [data-key="${key}"] .editor`);
}

/** Replaces a cell's text by typing, as an end-user does, and confirms with Enter. */
export async function typeInCell(page: Page, row: number, key: string, text: string): Promise<void> {
  await openCell(page, row, key);
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await reviewChecked(page);
}

/** The text shown under a valid cell when the server will store another form of it. */
export function storedNote(page: Page, row: number, key: string): Promise<string | null> {
  return page.$eval(`${IN} [data-row="${row}"] [data-key="${key}"]`, (cell: any) => cell.querySelector('[data-stored]')?.textContent ?? null);
}

/** Clicks a control of the review (`data-grid` name) from inside the page. */
export async function clickControl(page: Page, name: string): Promise<void> {
  await waitIn(page, `[data-grid="${name}"]`);
  await page.evaluate((inner: string) => document.querySelector('importd-importer').shadowRoot.querySelector(`[data-grid="${inner}"]`).click(), name);
}

/** The rows the grid has drawn: their number (0-based) and whether they have a problem. */
export function drawnRows(page: Page): Promise<{ row: number; problem: boolean }[]> {
  return page.$$eval(`${IN} .rows [role=row]`, (rows: any[]) => rows.map((row) => ({ row: Number(row.dataset.row), problem: row.classList.contains('has-problem') })));
}
