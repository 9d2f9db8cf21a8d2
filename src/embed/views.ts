import { STRINGS } from './strings';
import { CHARSETS, type Charset } from './decode';
import type { Sheet } from './table';
import type { Field } from './template';
import type { Mapping } from './submit';

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

export function pickView(): string {
  return `<h2 id="title">${STRINGS.title}</h2>
<label class="drop" data-drop>
  <span>${STRINGS.pick}</span>
  <input type="file" name="file" accept=".csv,.tsv,.txt,.xlsx,text/csv,text/tab-separated-values,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet">
  <span class="note">${STRINGS.drop}</span>
</label>`;
}

export function busyView(text: string, fraction?: number): string {
  const bar = fraction === undefined ? '<progress aria-label="progress"></progress>' : `<progress aria-label="progress" max="1" value="${fraction}"></progress>`;
  return `<p role="status">${escapeHtml(text)}</p>${bar}`;
}

export function sheetView(sheets: Sheet[]): string {
  const options = sheets.map((sheet, index) => `<option value="${index}">${escapeHtml(sheet.name)}</option>`).join('');
  return `<h2>${STRINGS.title}</h2>
<div class="grid"><label for="sheet">${STRINGS.sheet}</label><select id="sheet" name="sheet">${options}</select></div>
<div class="actions"><button type="button" data-action="back">${STRINGS.back}</button>
<button type="button" class="primary" data-action="choose-sheet">${STRINGS.chooseSheet}</button></div>`;
}

export interface MapViewInput {
  fileSummary: string;
  charset: Charset | undefined;
  charsetUncertain: boolean;
  headers: string[];
  fields: Field[];
  mapping: Mapping;
}

export function mapView(input: MapViewInput): string {
  const charset =
    input.charset === undefined
      ? ''
      : `<div class="grid"><label for="charset">${STRINGS.charset}</label><select id="charset" data-action="charset">${CHARSETS.map(
          (name) => `<option value="${name}"${name === input.charset ? ' selected' : ''}>${name}</option>`,
        ).join('')}</select></div>${input.charsetUncertain ? `<p class="warn">${STRINGS.charsetHint}</p>` : ''}`;
  const rows = input.fields
    .map((field, index) => {
      const chosen = input.mapping[field.key] ?? -1;
      const options = [`<option value="-1">${STRINGS.notImported}</option>`]
        .concat(input.headers.map((header, column) => `<option value="${column}"${column === chosen ? ' selected' : ''}>${escapeHtml(header)}</option>`))
        .join('');
      const required = field.required ? ' <span class="req" aria-hidden="true">*</span>' : '';
      return `<label for="map-${index}">${escapeHtml(field.label)}${required}</label><select id="map-${index}" data-field="${escapeHtml(field.key)}"${field.required ? ' aria-required="true"' : ''}>${options}</select>`;
    })
    .join('');
  return `<h2>${STRINGS.mapTitle}</h2><p class="note">${escapeHtml(input.fileSummary)}</p>${charset}
<div class="grid">${rows}</div>
<div class="actions"><button type="button" data-action="back">${STRINGS.back}</button>
<button type="button" class="primary" data-action="confirm-mapping">${STRINGS.confirmMapping}</button></div>`;
}

export function doneView(rowCount: number): string {
  return `<p class="ok" role="status">${STRINGS.done(rowCount)}</p>
<div class="actions"><button type="button" data-action="restart">${STRINGS.another}</button></div>`;
}

/** The error box: the server's message and its request id, so support can find the log line. */
export function errorView(message: string, requestId: string | undefined): string {
  const id = requestId ? `<br><span class="note">${STRINGS.requestId}: <code>${escapeHtml(requestId)}</code></span>` : '';
  return `<strong>${STRINGS.errorTitle}</strong><br>${escapeHtml(message)}${id}`;
}
