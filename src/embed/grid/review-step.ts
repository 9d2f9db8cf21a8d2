import { STRINGS } from '../strings';
import { escapeHtml } from '../views';
import { editCell } from './cell-editor';
import type { ReviewColumn, ReviewModel } from './review-model';
import { VirtualGrid } from './virtual-grid';

/** The review step's frame; the grid, the summary and the bulk fixes are filled in by ReviewStep. */
export function reviewView(model: ReviewModel): string {
  const mapped = model.columns.filter((column) => column.column >= 0);
  const columns = mapped.map((column, index) => `<option value="${index}">${escapeHtml(column.label)}</option>`).join('');
  return `<h2>${STRINGS.reviewTitle}</h2><p role="status" data-summary></p>
<div class="toolbar"><label><input type="checkbox" data-grid="only-problems"> ${STRINGS.onlyProblems}</label>
<label><input type="checkbox" data-grid="skip-invalid"> ${STRINGS.skipInvalid}</label></div>
<details class="replace"><summary>${STRINGS.findReplace}</summary><div class="toolbar">
<select data-grid="replace-column" aria-label="${STRINGS.replaceColumn}">${columns}</select>
<input type="text" data-grid="find" aria-label="${STRINGS.find}" placeholder="${STRINGS.find}">
<input type="text" data-grid="replace-with" aria-label="${STRINGS.replaceWith}" placeholder="${STRINGS.replaceWith}">
<button type="button" data-grid="replace">${STRINGS.replaceAll}</button></div></details>
<div class="apply-all" data-apply-all hidden></div>
<div class="viewport" role="grid" aria-rowcount="${model.rows.length + 1}" aria-label="${STRINGS.reviewTitle}" data-grid-viewport></div>
<div class="actions"><button type="button" data-action="back">${STRINGS.back}</button>
<button type="button" class="primary" data-action="submit" disabled>${STRINGS.submit(model.rows.length)}</button></div>`;
}

/**
 * Drives the review: every cell checked by the server's rules, edits in place, the filter to rows with
 * problems, find-and-replace in a column, "apply to all" after a fix, and skipping invalid rows. The submit
 * button is enabled once every row to send is valid.
 */
export class ReviewStep {
  private readonly grid: VirtualGrid;
  private readonly mapped: ReviewColumn[];

  constructor(
    private readonly root: HTMLElement,
    private readonly model: ReviewModel,
  ) {
    this.mapped = model.columns.filter((column) => column.column >= 0);
    this.grid = new VirtualGrid(root.querySelector('[data-grid-viewport]')!, model, (row, column) => this.edit(row, column));
    this.control('only-problems').addEventListener('change', (event) => {
      model.onlyProblems = (event.target as HTMLInputElement).checked;
      model.refreshView();
      this.grid.toTop();
      this.refresh();
    });
    this.control('skip-invalid').addEventListener('change', (event) => {
      model.skipInvalid = (event.target as HTMLInputElement).checked;
      void this.check();
    });
    this.control('replace').addEventListener('click', () => this.replace());
  }

  /** Checks every row, then shows the result. */
  async check(edited?: number[]): Promise<void> {
    this.summary(STRINGS.checking, 'note');
    this.submitButton().disabled = true;
    if (await this.model.check(edited)) this.refresh();
  }

  /** The first check: then the focus moves on to the submit button, or to the first invalid cell. */
  async start(): Promise<void> {
    await this.check();
    const next = this.submitButton().disabled ? this.root.querySelector<HTMLElement>('[role=gridcell][aria-invalid=true]') : this.submitButton();
    next?.focus();
  }

  private control<T extends HTMLElement = HTMLInputElement>(name: string): T {
    return this.root.querySelector<T>(`[data-grid="${name}"]`)!;
  }

  private submitButton(): HTMLButtonElement {
    return this.root.querySelector<HTMLButtonElement>('button[data-action="submit"]')!;
  }

  private summary(text: string, kind: 'ok' | 'warn' | 'note'): void {
    const status = this.root.querySelector<HTMLElement>('[data-summary]')!;
    status.className = kind;
    status.textContent = text;
  }

  private refresh(): void {
    const { model } = this;
    const invalid = model.invalidRows;
    const sending = model.skipInvalid ? model.rows.length - invalid : model.rows.length;
    if (invalid === 0) this.summary(STRINGS.allValid(model.rows.length), 'ok');
    else this.summary(model.skipInvalid ? STRINGS.skipping(invalid) : STRINGS.invalidRows(invalid), 'warn');
    const submit = this.submitButton();
    submit.textContent = STRINGS.submit(sending);
    submit.disabled = sending === 0 || (invalid > 0 && !model.skipInvalid);
    this.grid.render();
  }

  private edit(row: number, column: ReviewColumn): void {
    if (column.column < 0) return;
    const cell = this.root.querySelector<HTMLElement>(`[data-row="${row}"] [data-cell="${this.model.columns.indexOf(column)}"]`);
    if (cell === null) return;
    const before = this.model.cellText(row, column);
    editCell(cell, before, STRINGS.cellLabel(row + 1, column.label), this.model.rules?.choices.get(column.key), (text) => {
      if (text === undefined) return this.grid.render();
      this.model.setCell(row, column, text);
      this.offerApplyAll(column, before, text);
      void this.check([row]);
    });
  }

  /** After a fix, offers the same fix for every other cell of the column that held the same text. */
  private offerApplyAll(column: ReviewColumn, before: string, after: string): void {
    const box = this.root.querySelector<HTMLElement>('[data-apply-all]')!;
    const rows = this.model.rowsHolding(column, before);
    box.hidden = rows.length === 0;
    if (rows.length === 0) return;
    box.innerHTML = `<span>${escapeHtml(STRINGS.sameValue(rows.length, column.label, before))}</span> <button type="button" data-grid="apply-all">${escapeHtml(STRINGS.applyToAll(after))}</button>`;
    box.querySelector('button')!.addEventListener('click', () => {
      for (const row of rows) this.model.setCell(row, column, after);
      box.hidden = true;
      void this.check(rows);
    });
  }

  private replace(): void {
    const column = this.mapped[Number(this.control<HTMLSelectElement>('replace-column').value)];
    const find = this.control('find').value;
    if (column === undefined || find === '') return;
    const replacement = this.control('replace-with').value;
    const edited: number[] = [];
    for (let row = 0; row < this.model.rows.length; row++) {
      const text = this.model.cellText(row, column);
      if (!text.includes(find)) continue;
      this.model.setCell(row, column, text.split(find).join(replacement));
      edited.push(row);
    }
    void this.check(edited).then(() => {
      const status = this.root.querySelector<HTMLElement>('[data-summary]')!;
      status.textContent = `${STRINGS.replaced(edited.length)} ${status.textContent}`;
    });
  }
}
