import type { Translator } from './i18n/translate';
import type { Sheet } from './table';

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

export function doneView(t: Translator, rowCount: number): string {
  return `<p class="ok" role="status">${t.t('done', { count: rowCount })}</p>
<div class="actions"><button type="button" data-action="restart">${t.t('another')}</button></div>`;
}

/** The error box: the server's message and its request id, so support can find the log line. */
export function errorView(t: Translator, message: string, requestId: string | undefined): string {
  const id = requestId ? `<br><span class="note">${t.t('requestId')}: <code>${escapeHtml(requestId)}</code></span>` : '';
  return `<strong>${t.t('errorTitle')}</strong><br>${escapeHtml(message)}${id}`;
}
