import type { Charset } from './decode';
import { CHARSETS } from './decode';
import type { Translator } from './i18n/translate';
import type { Mapping } from './submit';
import type { Field } from './template';
import { escapeHtml } from './views';

/** Rows of the file shown above the mapping, and columns of them (the rest scrolls out of the way). */
export const PREVIEW_ROWS = 8;
const PREVIEW_COLUMNS = 12;
const CELL_CHARS = 40;

export const DELIMITERS = [',', ';', '\t', '|'] as const;
const DELIMITER_KEYS = { ',': 'delimiterComma', ';': 'delimiterSemicolon', '\t': 'delimiterTab', '|': 'delimiterPipe' } as const;

/** The name of a delimiter in the locale (`commas`), or the character itself. */
export function delimiterName(t: Translator, delimiter: string): string {
  const key = DELIMITER_KEYS[delimiter as keyof typeof DELIMITER_KEYS];
  return key ? t.t(key) : JSON.stringify(delimiter);
}

/** What the server suggested for a field: its column, how sure, and whether learned from earlier imports. */
export interface Suggestion {
  column: number;
  confidence: number;
  learned: boolean;
}

/** Why a field's choice blocks the next step: required and unmapped, or its column is chosen twice. */
export type MappingIssue = { kind: 'required' } | { kind: 'twice'; column: string; others: string[] };

/** The issues of a mapping, by field key: flagged before the end-user may continue. */
export function mappingIssues(fields: Field[], mapping: Mapping, headers: string[]): Map<string, MappingIssue> {
  const issues = new Map<string, MappingIssue>();
  const byColumn = new Map<number, Field[]>();
  for (const field of fields) {
    const column = mapping[field.key] ?? -1;
    if (column < 0) {
      if (field.required) issues.set(field.key, { kind: 'required' });
    } else byColumn.set(column, [...(byColumn.get(column) ?? []), field]);
  }
  for (const [column, sharing] of byColumn) {
    if (sharing.length < 2) continue;
    for (const field of sharing) issues.set(field.key, { kind: 'twice', column: headers[column] ?? '', others: sharing.filter((other) => other !== field).map((other) => other.label) });
  }
  return issues;
}

export interface MapViewInput {
  fileSummary: string;
  csv: { charset: Charset; uncertain: boolean; delimiter: string } | undefined;
  /** The first rows of the sheet as read (the header row among them). */
  preview: string[][];
  headerRow: number;
  headers: string[];
  fields: Field[];
  mapping: Mapping;
  suggestions: Record<string, Suggestion | undefined>;
  samples: (column: number) => string[];
  /** Columns no field uses, and whether each is kept (offered only when the template keeps extra columns). */
  extra: { keepable: boolean; columns: { column: number; label: string; kept: boolean }[] };
}

export function mapView(t: Translator, input: MapViewInput): string {
  const issues = mappingIssues(input.fields, input.mapping, input.headers);
  const fields = input.fields.map((field, index) => fieldRow(t, input, field, index, issues.get(field.key))).join('');
  const blocked = issues.size > 0 ? `<p class="warn" role="status">${escapeHtml(t.t('fixMapping', { count: issues.size }))}</p>` : '';
  return `<h2>${t.t('mapTitle')}</h2><p class="note">${escapeHtml(input.fileSummary)}</p>${readingChoices(t, input.csv)}
${previewTable(t, input)}
<div class="fields">${fields}</div>${extraColumns(t, input.extra)}${blocked}
<div class="actions"><button type="button" data-action="back">${t.t('back')}</button>
<button type="button" class="primary" data-action="confirm-mapping"${issues.size > 0 ? ' disabled' : ''}>${t.t('confirmMapping')}</button></div>`;
}

function readingChoices(t: Translator, csv: MapViewInput['csv']): string {
  if (!csv) return '';
  const charsets = CHARSETS.map((name) => `<option value="${name}"${name === csv.charset ? ' selected' : ''}>${name}</option>`).join('');
  const delimiters = DELIMITERS.map((d) => `<option value="${escapeHtml(d)}"${d === csv.delimiter ? ' selected' : ''}>${escapeHtml(delimiterName(t, d))}</option>`).join('');
  return `<div class="choices"><label>${t.t('charset')} <select id="charset">${charsets}</select></label>
<label>${t.t('delimiter')} <select id="delimiter">${delimiters}</select></label></div>${csv.uncertain ? `<p class="warn">${t.t('charsetHint')}</p>` : ''}`;
}

function previewTable(t: Translator, input: MapViewInput): string {
  const width = Math.min(PREVIEW_COLUMNS, Math.max(0, ...input.preview.map((row) => row.length)));
  const rows = input.preview
    .map((row, index) => {
      const header = index === input.headerRow;
      const cells = Array.from({ length: width }, (_, column) => `<td>${escapeHtml(clip(row[column] ?? ''))}</td>`).join('');
      const mark = header ? `<span class="badge">${t.t('headerRow')}</span>` : escapeHtml(t.t('rowNumber', { row: index + 1 }));
      return `<tr data-header-row="${index}" tabindex="0" aria-selected="${header}"${header ? ' class="header"' : ''}><th scope="row">${mark}</th>${cells}</tr>`;
    })
    .join('');
  return `<p class="note">${t.t('headerRowHint')}</p><div class="preview"><table aria-label="${escapeHtml(t.t('preview'))}"><tbody>${rows}</tbody></table></div>`;
}

function fieldRow(t: Translator, input: MapViewInput, field: Field, index: number, issue: MappingIssue | undefined): string {
  const chosen = input.mapping[field.key] ?? -1;
  const options = [`<option value="-1">${t.t('notImported')}</option>`]
    .concat(input.headers.map((header, column) => `<option value="${column}"${column === chosen ? ' selected' : ''}>${escapeHtml(header)}</option>`))
    .join('');
  const required = field.required ? ' <span class="req" aria-hidden="true">*</span>' : '';
  const notes = [evidence(t, input.suggestions[field.key], chosen)];
  if (chosen >= 0) {
    const samples = input.samples(chosen);
    notes.push(samples.length > 0 ? t.t('samples', { values: samples.map((value) => `“${clip(value)}”`).join(' · ') }) : t.t('emptyColumn'));
  }
  const problem = issue === undefined ? '' : `<p class="problem" id="issue-${index}">${escapeHtml(issue.kind === 'required' ? t.t('requiredUnmapped') : t.t('usedTwice', { column: issue.column, fields: t.list(issue.others) }))}</p>`;
  const described = issue === undefined ? '' : ` aria-invalid="true" aria-describedby="issue-${index}"`;
  return `<div class="field${issue ? ' flagged' : ''}"><label for="map-${index}">${escapeHtml(field.label)}${required}</label>
<select id="map-${index}" data-field="${escapeHtml(field.key)}"${field.required ? ' aria-required="true"' : ''}${described}>${options}</select>
<div class="notes">${notes.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join('')}${problem}</div></div>`;
}

function evidence(t: Translator, suggestion: Suggestion | undefined, chosen: number): string {
  if (suggestion === undefined) return chosen < 0 ? t.t('noSuggestion') : t.t('yourChoice');
  if (suggestion.column !== chosen) return t.t('yourChoice');
  const sure = t.t('suggested', { confidence: t.percent(suggestion.confidence) });
  return suggestion.learned ? `${sure} · ${t.t('learned')}` : sure;
}

function extraColumns(t: Translator, extra: MapViewInput['extra']): string {
  if (extra.columns.length === 0) return '';
  if (!extra.keepable) return `<p class="note">${escapeHtml(t.t('extraDropped', { columns: t.list(extra.columns.map((c) => c.label)) }))}</p>`;
  const boxes = extra.columns
    .map((c) => `<label class="check"><input type="checkbox" data-keep-column="${c.column}"${c.kept ? ' checked' : ''}> ${escapeHtml(c.label)}</label>`)
    .join('');
  return `<fieldset class="extra"><legend>${t.t('extraTitle')}</legend><p class="note">${t.t('extraKeep')}</p>${boxes}</fieldset>`;
}

function clip(text: string): string {
  return text.length > CELL_CHARS ? `${text.slice(0, CELL_CHARS - 1)}…` : text;
}
