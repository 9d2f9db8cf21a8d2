import type { Translator } from '../i18n/translate';
import { escapeHtml } from '../views';
import { editCell } from './cell-editor';
import type { ChangePreview } from './change-preview';
import type { ReviewColumn, ReviewModel } from './review-model';
import { VirtualGrid } from './virtual-grid';

/** The review step's frame; the grid, the summary and the bulk fixes are filled in by ReviewStep. */
export function reviewView(t: Translator, model: ReviewModel): string {
  const mapped = model.columns.filter((column) => column.column >= 0);
  const columns = mapped.map((column, index) => `<option value="${index}">${escapeHtml(column.label)}</option>`).join('');
  return `<h2>${t.t('reviewTitle')}</h2><p role="status" data-summary></p><section class="changes" data-preview hidden></section>
<div class="toolbar"><label><input type="checkbox" data-grid="only-problems"> ${t.t('onlyProblems')}</label>
<label><input type="checkbox" data-grid="skip-invalid"> ${t.t('skipInvalid')}</label></div>
<details class="replace"><summary>${t.t('findReplace')}</summary><div class="toolbar">
<select data-grid="replace-column" aria-label="${t.t('replaceColumn')}">${columns}</select>
<input type="text" data-grid="find" aria-label="${t.t('find')}" placeholder="${t.t('find')}">
<input type="text" data-grid="replace-with" aria-label="${t.t('replaceWith')}" placeholder="${t.t('replaceWith')}">
<button type="button" data-grid="replace">${t.t('replaceAll')}</button></div></details>
<div class="apply-all" data-apply-all hidden></div>
<div class="viewport" role="grid" aria-rowcount="${model.rows.length + 1}" aria-label="${t.t('reviewTitle')}" data-grid-viewport></div>
<div class="actions"><button type="button" data-action="back">${t.t('back')}</button>
<button type="button" class="primary" data-action="submit" disabled>${t.t('submit', { count: model.rows.length })}</button></div>`;
}

/**
 * Drives the review: every cell checked by the server's rules, edits in place, the filter to rows with
 * problems, find-and-replace in a column, "apply to all" after a fix, and skipping invalid rows. The submit
 * button is enabled once every row to send is valid; then a keyed template's preview asks what they change.
 */
export class ReviewStep {
  private readonly grid: VirtualGrid;
  private readonly mapped: ReviewColumn[];

  constructor(
    private readonly root: HTMLElement,
    private readonly model: ReviewModel,
    private readonly t: Translator,
    private readonly preview?: ChangePreview,
  ) {
    this.mapped = model.columns.filter((column) => column.column >= 0);
    this.grid = new VirtualGrid(root.querySelector('[data-grid-viewport]')!, model, t, (row, column) => this.edit(row, column));
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
    this.control('replace').addEventListener('click', () => void this.replace());
  }

  /** Checks every row, then shows the result and, when they can be sent, asks for the preview of what they change. */
  async check(edited?: number[]): Promise<void> {
    this.busy();
    this.preview?.cancel();
    if (!(await this.model.check(edited))) return;
    this.refresh();
    if (this.submitButton().disabled) this.preview?.wait();
    else this.preview?.refresh();
  }

  /** The first check: then the focus moves on to the submit button, or to the first invalid cell. */
  async start(): Promise<void> {
    await this.check();
    const next = this.submitButton().disabled ? this.root.querySelector<HTMLElement>('[role=gridcell][aria-invalid=true]') : this.submitButton();
    next?.focus();
  }

  /** Work on the rows is under way: nothing is sent until it is done and the rows checked. */
  private busy(): void {
    this.summary(this.t.t('checking'), 'note');
    this.submitButton().disabled = true;
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
    const { model, t } = this;
    const invalid = model.invalidRows;
    const sending = model.skipInvalid ? model.rows.length - invalid : model.rows.length;
    if (invalid === 0) this.summary(t.t('allValid', { count: model.rows.length }), 'ok');
    else this.summary(model.skipInvalid ? t.t('skipping', { count: invalid }) : t.t('invalidRows', { count: invalid }), 'warn');
    const submit = this.submitButton();
    submit.textContent = t.t('submit', { count: sending });
    submit.disabled = sending === 0 || (invalid > 0 && !model.skipInvalid);
    this.grid.render();
  }

  private edit(row: number, column: ReviewColumn): void {
    if (column.column < 0) return;
    const cell = this.root.querySelector<HTMLElement>(`[data-row="${row}"] [data-cell="${this.model.columns.indexOf(column)}"]`);
    if (cell === null) return;
    const before = this.model.cellText(row, column);
    editCell(cell, before, this.t.t('cellLabel', { row: row + 1, field: column.label }), this.t, this.model.rules?.choices.get(column.key), (text) => {
      if (text === undefined) return this.grid.render();
      this.model.setCell(row, column, text);
      void this.offerApplyAll(column, before, text);
      void this.check([row]);
    });
  }

  /** After a fix, offers the same fix for every other cell of the column that held the same text. */
  private async offerApplyAll(column: ReviewColumn, before: string, after: string): Promise<void> {
    const box = this.root.querySelector<HTMLElement>('[data-apply-all]')!;
    box.hidden = true;
    const rows = await this.model.rowsHolding(column, before);
    if (rows.length === 0) return;
    box.hidden = false;
    box.innerHTML = `<span>${escapeHtml(this.t.t('sameValue', { count: rows.length, field: column.label, text: before }))}</span> <button type="button" data-grid="apply-all">${escapeHtml(this.t.t('applyToAll', { text: after }))}</button>`;
    box.querySelector('button')!.addEventListener('click', () => {
      for (const row of rows) this.model.setCell(row, column, after);
      box.hidden = true;
      void this.check(rows);
    });
  }

  private async replace(): Promise<void> {
    const column = this.mapped[Number(this.control<HTMLSelectElement>('replace-column').value)];
    const find = this.control('find').value;
    if (column === undefined || find === '') return;
    this.busy();
    const edited = await this.model.replaceInColumn(column, find, this.control('replace-with').value);
    await this.check(edited);
    const status = this.root.querySelector<HTMLElement>('[data-summary]')!;
    status.textContent = `${this.t.t('replaced', { count: edited.length })} ${status.textContent}`;
  }
}
