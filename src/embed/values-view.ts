import type { DateDetection, TextDateFormat } from './date-format';
import type { EnumOption } from './declared';
import type { Translator } from './i18n/translate';
import type { Field } from './template';
import { MAX_DISTINCT_VALUES, type ValueChoice } from './value-mapping';
import { escapeHtml } from './views';

/** An enum field's distinct values with their suggested options. */
export interface EnumStep {
  field: Field;
  options: EnumOption[];
  values: ValueChoice[];
}

/** A date field's detected format, or the formats to pick from. */
export interface DateStep {
  field: Field;
  withTime: boolean;
  detection: DateDetection;
  /** The detected or picked format, and a value of the column read in it. */
  chosen: TextDateFormat | undefined;
  example: { text: string; iso: string } | undefined;
}

export function valuesView(t: Translator, enums: EnumStep[], dates: DateStep[]): string {
  const blocked = dates.some((step) => step.chosen === undefined);
  return `<h2>${t.t('valuesTitle')}</h2>${dates.map((step, index) => dateBlock(t, step, index)).join('')}${enums.map((step, index) => enumBlock(t, step, index)).join('')}
<div class="actions"><button type="button" data-action="back-to-mapping">${t.t('back')}</button>
<button type="button" class="primary" data-action="confirm-values"${blocked ? ' disabled' : ''}>${t.t('confirmValues')}</button></div>`;
}

function dateBlock(t: Translator, step: DateStep, index: number): string {
  const { detection } = step;
  const formats = detection.format === undefined ? detection.possible : [detection.format];
  const options = formats.map((format) => `<option value="${format}"${format === step.chosen ? ' selected' : ''}>${format}</option>`).join('');
  const placeholder = step.chosen === undefined ? '<option value="" selected disabled>—</option>' : '';
  const example = step.example ? t.t(detection.format === undefined ? 'dateExample' : 'dateDetected', { example: step.example.text, date: t.date(step.example.iso) }) : '';
  const ambiguous = detection.format === undefined ? `<p class="warn">${escapeHtml(t.t('dateAmbiguous', { example: detection.example ?? '' }))}</p>` : '';
  const note = `${ambiguous}${example ? `<p class="note">${escapeHtml(example)}</p>` : ''}`;
  return `<div class="field"><label for="date-${index}">${escapeHtml(t.t('dateFormat', { field: step.field.label }))}</label>
<select id="date-${index}" data-date-field="${escapeHtml(step.field.key)}">${placeholder}${options}</select><div class="notes">${note}</div></div>`;
}

function enumBlock(t: Translator, step: EnumStep, index: number): string {
  const rows = step.values
    .map((choice, row) => {
      const options = [`<option value="">${t.t('keepValue')}</option>`]
        .concat(step.options.map((option) => `<option value="${escapeHtml(option.value)}"${option.value === choice.option ? ' selected' : ''}>${escapeHtml(option.label ?? option.value)}</option>`))
        .join('');
      const learned = choice.source === 'learned' ? ` <span class="badge">${t.t('learned')}</span>` : '';
      const id = `value-${index}-${row}`;
      return `<tr><th scope="row"><label for="${id}">${escapeHtml(choice.value)}</label> <span class="note">(${escapeHtml(t.t('rows', { count: choice.rows }))})</span></th>
<td><select id="${id}" data-enum-field="${escapeHtml(step.field.key)}" data-value="${escapeHtml(choice.value)}">${options}</select>${learned}</td></tr>`;
    })
    .join('');
  const capped = step.values.length >= MAX_DISTINCT_VALUES ? `<p class="note">${escapeHtml(t.t('valuesCapped', { count: MAX_DISTINCT_VALUES }))}</p>` : '';
  return `<h3>${escapeHtml(t.t('valuesOf', { field: step.field.label, count: step.values.length }))}</h3>${capped}
<div class="preview"><table class="values"><thead><tr><th scope="col">${t.t('valueInFile')}</th><th scope="col">${t.t('valueOption')}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}
