import { ruleMessage } from '../i18n/rule-message';
import type { Translator } from '../i18n/translate';
import { escapeHtml } from '../views';
import type { ReviewColumn, ReviewModel } from './review-model';

/** Every row has this height (a value and, when invalid, its message), so a row's position is a product. */
export const ROW_PX = 44;
/** Browsers cap an element's height (Chrome near 33 million px): past this the scroll position is scaled. */
const MAX_SCROLL_PX = 8_000_000;
/** Rows drawn beyond the visible ones, so a fast wheel does not show blank space. */
const OVERSCAN = 6;

/**
 * A table of every row of the review that draws only the rows in sight (a million rows cost the DOM what
 * twenty do). Rows sit in a box moved to the scroll position; the sizer gives the scroll bar its length.
 */
export class VirtualGrid {
  private readonly header: HTMLElement;
  private readonly sizer: HTMLElement;
  private readonly body: HTMLElement;
  private frame = 0;
  private drawn = { first: 0, last: 0, count: -1 };

  constructor(
    private readonly viewport: HTMLElement,
    private readonly model: ReviewModel,
    private readonly t: Translator,
    onCell: (row: number, column: ReviewColumn) => void,
  ) {
    viewport.setAttribute('style', this.columnsStyle());
    const header = `<div role="row" class="row head"><span role="columnheader">#</span>${model.columns
      .map((column) => `<span role="columnheader">${escapeHtml(column.label)}</span>`)
      .join('')}</div>`;
    viewport.innerHTML = `${header}<div class="sizer"><div class="rows" role="rowgroup"></div></div>`;
    this.header = viewport.querySelector('.head')!;
    this.sizer = viewport.querySelector('.sizer')!;
    this.body = viewport.querySelector('.rows')!;
    viewport.addEventListener('scroll', () => this.schedule(), { passive: true });
    const cellOf = (target: EventTarget | null) => (target instanceof Element ? target.closest<HTMLElement>('[data-cell]') : null);
    const open = (cell: HTMLElement) => onCell(Number(cell.dataset.row), model.columns[Number(cell.dataset.cell)]!);
    this.body.addEventListener('click', (event) => {
      const cell = cellOf(event.target);
      if (cell) open(cell);
    });
    this.body.addEventListener('keydown', (event) => {
      const cell = cellOf(event.target);
      if (cell && (event.key === 'Enter' || event.key === 'F2')) {
        event.preventDefault();
        open(cell);
      }
    });
  }

  /**
   * The columns of every row, set once on the viewport (no style per drawn row). A fixed least width: a
   * row's width never follows its content, so the header and every row line up.
   */
  private columnsStyle(): string {
    const columns = this.model.columns.length;
    return `--columns: 64px repeat(${columns}, minmax(140px, 1fr)); --row-width: ${64 + columns * 140}px`;
  }

  /** Back to the first row (the view changed: another set of rows). */
  toTop(): void {
    this.viewport.scrollTop = 0;
  }

  /** Redraws on the next frame (scroll events come faster than frames). */
  schedule(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      // An open editor stays where it is until it is closed (which redraws).
      if (this.body.querySelector('.editor') === null) this.render(false);
    });
  }

  /** Draws the rows in sight; `redraw` false when only the scroll position changed. */
  render(redraw = true): void {
    const count = this.model.viewSize;
    const full = count * ROW_PX;
    const height = Math.min(full, MAX_SCROLL_PX);
    this.sizer.style.height = `${height}px`;
    const top = this.viewport.scrollTop;
    // Rows in sight below the sticky header, as a fraction.
    const inSight = Math.max(1, (this.viewport.clientHeight - this.header.offsetHeight) / ROW_PX);
    let first: number;
    let offset: number;
    if (full === height) {
      first = Math.max(0, Math.floor(top / ROW_PX) - OVERSCAN);
      offset = first * ROW_PX;
    } else {
      // Scaled: the scroll position is a fraction of the rows, and the box of rows follows the scroll position.
      const maxTop = Math.max(1, this.viewport.scrollHeight - this.viewport.clientHeight);
      const exact = Math.min(1, top / maxTop) * Math.max(0, count - inSight);
      first = Math.floor(exact);
      offset = top - (exact - first) * ROW_PX;
    }
    const last = Math.min(count, first + Math.ceil(inSight) + 2 * OVERSCAN + 1);
    // Scrolled within the rows drawn (unscaled, the box moves with the content): nothing to draw.
    const seen = Math.floor(top / ROW_PX);
    if (!redraw && full === height && this.drawn.count === count && seen >= this.drawn.first && seen + inSight <= this.drawn.last) return;
    this.drawn = { first, last, count };
    this.body.style.transform = `translateY(${offset}px)`;
    const html: string[] = [];
    for (let position = first; position < last; position++) html.push(this.rowHtml(this.model.rowAt(position)));
    this.body.innerHTML = html.join('');
  }

  private rowHtml(row: number): string {
    const errors = this.model.rowErrors(row);
    const stored = this.model.storedValues(row);
    const cells = this.model.columns.map((column, index) => {
      const text = this.model.cellText(row, column);
      const error = errors?.find((item) => item.key === column.key || item.key.split('+').includes(column.key));
      const message = error === undefined ? undefined : ruleMessage(this.t, error);
      const becomes = stored.get(column.key);
      const note = message !== undefined
        ? `<span class="message" data-error>${escapeHtml(message)}</span>`
        : becomes === undefined
          ? ''
          : `<span class="becomes" data-stored>${escapeHtml(this.t.t('storedAs', { text: becomes }))}</span>`;
      const invalid = error ? ' aria-invalid="true"' : '';
      return `<span role="gridcell" tabindex="0" data-cell="${index}" data-key="${escapeHtml(column.key)}" data-row="${row}"${invalid} title="${escapeHtml(message ?? text)}"><span class="text">${escapeHtml(text)}</span>${note}</span>`;
    });
    const skipped = errors && this.model.skipInvalid ? ' skipped' : '';
    return `<div role="row" class="row${errors ? ' has-problem' : ''}${skipped}" data-row="${row}"><span class="number">${row + 1}</span>${cells.join('')}</div>`;
  }
}
