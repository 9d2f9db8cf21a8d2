import type { Translator } from './i18n/translate';
import type { Sheet } from './table';
import type { checkCell, Field } from './template';

/** One invalid cell as shown: where it is, its text and the problem. */
export interface Problem {
  row: number;
  field: Field;
  column: number;
  value: string;
  problem: NonNullable<ReturnType<typeof checkCell>>;
}

/** Shown at most this many at a time: the list stays short enough to work through. */
export const PROBLEMS_SHOWN = 50;

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

export function pickView(t: Translator): string {
  return `<h2 id="title">${t.t('title')}</h2>
<label class="drop" data-drop>
  <span>${t.t('pick')}</span>
  <input type="file" name="file" accept=".csv,.tsv,.txt,.xlsx,text/csv,text/tab-separated-values,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet">
  <span class="note">${t.t('drop')}</span>
</label>`;
}

export function busyView(t: Translator, text: string, fraction?: number): string {
  const label = escapeHtml(t.t('progress'));
  const bar = fraction === undefined ? `<progress aria-label="${label}"></progress>` : `<progress aria-label="${label}" max="1" value="${fraction}"></progress>`;
  return `<p role="status">${escapeHtml(text)}</p>${bar}`;
}

export function sheetView(t: Translator, sheets: Sheet[]): string {
  const options = sheets.map((sheet, index) => `<option value="${index}">${escapeHtml(sheet.name)}</option>`).join('');
  return `<h2>${t.t('title')}</h2>
<div class="grid"><label for="sheet">${t.t('sheet')}</label><select id="sheet" name="sheet">${options}</select></div>
<div class="actions"><button type="button" data-action="back">${t.t('back')}</button>
<button type="button" class="primary" data-action="choose-sheet">${t.t('chooseSheet')}</button></div>`;
}

export function reviewView(t: Translator, problems: Problem[], rowCount: number): string {
  const shown = problems.slice(0, PROBLEMS_SHOWN);
  const list = shown
    .map((item, index) => {
      const label = t.t('cellLabel', { row: item.row, field: item.field.label });
      return `<label for="cell-${index}">${escapeHtml(label)}</label>
<span class="invalid"><input type="text" id="cell-${index}" data-row="${item.row}" data-column="${item.column}" value="${escapeHtml(item.value)}" aria-invalid="true" aria-describedby="problem-${index}"></span>
<span class="problem" id="problem-${index}">${escapeHtml(t.t(`problem.${item.problem}`))}</span>`;
    })
    .join('');
  const summary = problems.length === 0 ? `<p class="ok" role="status">${t.t('allValid', { count: rowCount })}</p>` : `<p class="warn" role="status">${t.t('invalid', { count: problems.length })}</p>`;
  const more = problems.length > shown.length ? `<p class="note">${t.t('moreInvalid', { count: problems.length - shown.length })}</p>` : '';
  return `<h2>${t.t('reviewTitle')}</h2>${summary}<div class="grid">${list}</div>${more}
<div class="actions"><button type="button" data-action="back">${t.t('back')}</button>
<button type="button" class="primary" data-action="submit"${problems.length > 0 ? ' disabled' : ''}>${t.t('submit', { count: rowCount })}</button></div>`;
}

export function doneView(t: Translator, rowCount: number): string {
  return `<p class="ok" role="status">${t.t('done', { count: rowCount })}</p>
<div class="actions"><button type="button" data-action="restart">${t.t('another')}</button></div>`;
}

/** The error box: the server's message and its request id, so support can find the log line. */
export function errorView(t: Translator, message: string, requestId: string | undefined): string {
  const id = requestId ? `<br><span class="note">${t.t('requestId')}: <code>${escapeHtml(requestId)}</code></span>` : '';
  return `<strong>${t.t('errorTitle')}</strong><br>${escapeHtml(message)}${id}`;
}
