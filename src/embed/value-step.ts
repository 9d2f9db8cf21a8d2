import { compileDateReader } from '../rules/dates';
import { detectDateFormat, type TextDateFormat } from './date-format';
import type { DeclaredRules, FieldRules } from './declared';
import type { Translator } from './i18n/translate';
import type { Rows } from './rows';
import type { Mapping } from './submit';
import type { Field } from './template';
import { countValues, mostFrequent, rewriteValues, suggestValues } from './value-mapping';
import { valuesView, type DateStep, type EnumStep } from './values-view';

/** What the server takes in meta.valueMapping (src/services/mapping/schemas.ts): values in all, and characters of each. */
const MAX_CONFIRMED_VALUES = 500;
const MAX_VALUE_CHARS = 200;

/** The value step of one confirmed mapping: enum values matched to options, date formats detected or picked. */
export class ValueStep {
  private readonly enums: EnumStep[] = [];
  private readonly dates: DateStep[] = [];

  private constructor(
    private readonly table: Rows,
    private readonly mapping: Mapping,
  ) {}

  /**
   * Counts the values of the mapped enum and date columns of `table` (header row first) in slices that yield
   * to the page (a million rows take seconds), then suggests options and detects date formats.
   */
  static async open(table: Rows, fields: Field[], mapping: Mapping, declared: DeclaredRules | undefined, learned: Record<string, Record<string, string>>): Promise<ValueStep> {
    const scanned: { field: Field; column: number; rules: FieldRules }[] = [];
    for (const field of fields) {
      const column = mapping[field.key] ?? -1;
      const rules = declared?.fields.get(field.key);
      if (column < 0 || !rules) continue;
      const isEnum = rules.type === 'enum' && rules.options !== undefined && rules.options.length > 0;
      if (isEnum || rules.type === 'date' || rules.type === 'datetime') scanned.push({ field, column, rules });
    }
    const counted = await countValues(table, scanned.map((item) => item.column));
    const step = new ValueStep(table, mapping);
    for (const [at, { field, column, rules }] of scanned.entries()) {
      const counts = counted[at]!;
      if (rules.type === 'enum') {
        step.enums.push({ field, options: rules.options!, values: suggestValues(mostFrequent(counts), rules.options!, learned[field.key] ?? {}) });
        continue;
      }
      // The distinct trimmed values, in the order the file first holds them: what the detection reads.
      const detection = detectDateFormat([...counts.keys()], rules.formats, rules.type === 'datetime');
      if (detection.possible.length === 0) continue;
      step.dates.push(step.withExample({ field, withTime: rules.type === 'datetime', detection, chosen: detection.format, example: undefined }, column));
    }
    return step;
  }

  /** Whether anything is to be shown: an enum column, or a date column not written as ISO dates. */
  needed(): boolean {
    return this.enums.length > 0 || this.dates.some((step) => step.chosen !== 'YYYY-MM-DD');
  }

  view(t: Translator): string {
    return valuesView(t, this.enums, this.dates.filter((step) => step.detection.format !== 'YYYY-MM-DD'));
  }

  /** Keeps the end-user's choices as they make them; a date format picked re-renders (its example changes). */
  wire(view: HTMLElement, rerender: () => void): void {
    for (const select of view.querySelectorAll<HTMLSelectElement>('select[data-enum-field]')) {
      select.addEventListener('change', () => {
        const step = this.enums.find((item) => item.field.key === select.dataset.enumField);
        const choice = step?.values.find((item) => item.value === select.dataset.value);
        if (choice) Object.assign(choice, { option: select.value, source: undefined });
      });
    }
    for (const select of view.querySelectorAll<HTMLSelectElement>('select[data-date-field]')) {
      select.addEventListener('change', () => {
        const index = this.dates.findIndex((item) => item.field.key === select.dataset.dateField);
        const step = this.dates[index]!;
        this.dates[index] = this.withExample({ ...step, chosen: select.value as TextDateFormat }, this.mapping[step.field.key]!);
        rerender();
      });
    }
  }

  /**
   * The table with the mapped cells rewritten (enum values to their options, dates to ISO 8601 in their
   * format), as a copy: going back to the mapping finds the file as read, and the values as written.
   */
  apply(): Rows {
    if (!this.needed()) return this.table;
    const enums = this.enums.map((step) => ({ column: this.mapping[step.field.key]!, chosen: new Map(step.values.filter((choice) => choice.option !== '').map((choice) => [choice.value, choice.option])) }));
    const dates = this.dates.flatMap((step) => (step.chosen && step.chosen !== 'YYYY-MM-DD' ? [{ column: this.mapping[step.field.key]!, format: step.chosen, withTime: step.withTime }] : []));
    return rewriteValues(this.table, enums, dates);
  }

  /**
   * meta.valueMapping: `{ fieldKey: { fileValue: option } }` for the values the end-user (or this account's
   * earlier imports) matched, not those the options' own texts already name; the account remembers them.
   */
  confirmed(): Record<string, Record<string, string>> {
    const confirmed: Record<string, Record<string, string>> = {};
    let left = MAX_CONFIRMED_VALUES;
    for (const step of this.enums) {
      const entries = step.values.filter((choice) => choice.option !== '' && choice.source !== 'option' && choice.value.length <= MAX_VALUE_CHARS).map((choice) => [choice.value, choice.option]);
      const kept = entries.slice(0, left);
      left -= kept.length;
      if (kept.length > 0 && step.field.key.length <= MAX_VALUE_CHARS) confirmed[step.field.key] = Object.fromEntries(kept);
    }
    return confirmed;
  }

  private withExample(step: DateStep, column: number): DateStep {
    if (step.chosen === undefined) return step;
    const reader = compileDateReader([step.chosen]);
    for (let index = 1; index < this.table.length; index++) {
      const text = this.table.cell(index, column).trim();
      const iso = text === '' ? 'date' : reader.read(text, step.withTime);
      if (iso !== 'date' && iso !== 'ambiguous_date') return { ...step, example: { text, iso } };
    }
    return step;
  }
}
