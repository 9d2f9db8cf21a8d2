import { requestJson, type Credentials } from './api';
import type { DeclaredRules } from './declared';
import type { Translator } from './i18n/translate';
import { mapView, mappingIssues, PREVIEW_ROWS, type Suggestion } from './mapping-view';
import type { Mapping } from './submit';
import type { Rows } from './rows';
import { headerLabels } from './table';
import type { Field } from './template';

const SAMPLES = 5;
const SHOWN_SAMPLES = 3;

/** An answer of map-headers for one schema key (docs/api.md). */
interface HeaderAnswer {
  fileKey: string;
  confidence: number;
  source?: 'learned';
  values?: Record<string, string>;
}

/** The template as the mapping step reads it. */
export interface TemplateFields {
  id: string;
  fields: Field[];
  declared: DeclaredRules;
}

/**
 * The mapping of one table (its header row first): the fields, the columns chosen for them, what the server
 * suggested and why, and the extra columns kept. The element re-creates it when the header row changes.
 */
export class MappingStep {
  readonly headers: string[];
  readonly fields: Field[];
  mapping: Mapping = {};
  readonly suggestions: Record<string, Suggestion | undefined> = {};
  /** Values this account confirmed before, by field key (file value -> option value). */
  readonly learnedValues: Record<string, Record<string, string>> = {};
  readonly kept = new Set<number>();

  constructor(
    readonly table: Rows,
    private readonly template: TemplateFields | undefined,
  ) {
    this.headers = headerLabels(table.row(0));
    // A template without fields takes every column under its own header.
    this.fields = this.declared() ? template!.fields : this.headers.map((label) => ({ key: label, label, type: 'string', required: false, pattern: undefined, enum: undefined }));
    if (!this.declared()) this.mapping = Object.fromEntries(this.headers.map((label, column) => [label, column]));
  }

  private declared(): boolean {
    return this.template !== undefined && this.template.fields.length > 0;
  }

  /** Asks map-headers for the suggested columns (with samples of each), when the template declares fields. */
  async suggest(credentials: Credentials & { templateId: string }): Promise<void> {
    if (!this.declared()) return;
    const answer = await requestJson<Record<string, HeaderAnswer>>(credentials, 'POST', '/v1/intelligence/map-headers', {
      // The template's learned mappings count only when the call names it (the session may be bound to it anyway).
      templateId: this.template!.id,
      schemaHeaders: this.fields.map((field) => ({ key: field.key, label: field.label })),
      fileHeaders: this.headers.map((label, column) => ({ key: label, label, samples: this.samples(column, SAMPLES).map((cell) => cell.slice(0, 200)) })),
    });
    for (const field of this.fields) {
      const found = Object.hasOwn(answer, field.key) ? answer[field.key] : undefined;
      const column = found ? this.headers.indexOf(found.fileKey) : -1;
      this.mapping[field.key] = column;
      if (found && column >= 0) this.suggestions[field.key] = { column, confidence: found.confidence, learned: found.source === 'learned' };
      if (found?.values) this.learnedValues[field.key] = found.values;
    }
  }

  /** The first non-empty cells of a column, below the header. */
  samples(column: number, count: number): string[] {
    const found: string[] = [];
    for (let index = 1; index < this.table.length && found.length < count; index += 1) {
      const cell = this.table.cell(index, column);
      if (cell.trim() !== '') found.push(cell);
    }
    return found;
  }

  /** Whether the end-user may continue: no required field unmapped, no column chosen twice. */
  complete(): boolean {
    return mappingIssues(this.fields, this.mapping, this.headers).size === 0;
  }

  view(t: Translator, input: { fileSummary: string; csv: Parameters<typeof mapView>[1]['csv']; sheetRows: Rows; headerRow: number }): string {
    return mapView(t, {
      fileSummary: input.fileSummary,
      csv: input.csv,
      preview: input.sheetRows.head(Math.max(PREVIEW_ROWS, input.headerRow + 2)),
      headerRow: input.headerRow,
      headers: this.headers,
      fields: this.fields,
      mapping: this.mapping,
      suggestions: this.suggestions,
      samples: (column) => this.samples(column, SHOWN_SAMPLES),
      extra: { keepable: this.template?.declared.keepExtraColumns ?? false, columns: this.extraColumns().map((column) => ({ column, label: this.headers[column]!, kept: this.kept.has(column) })) },
    });
  }

  /** The field selects and keep boxes of a rendered view; `changed` re-renders after a field's column changes. */
  wire(view: HTMLElement, changed: (focus: string) => void): void {
    for (const select of view.querySelectorAll<HTMLSelectElement>('select[data-field]')) {
      select.addEventListener('change', () => {
        this.mapping[select.dataset.field!] = Number(select.value);
        changed(`#${select.id}`);
      });
    }
    for (const box of view.querySelectorAll<HTMLInputElement>('input[data-keep-column]')) {
      box.addEventListener('change', () => {
        const column = Number(box.dataset.keepColumn);
        if (box.checked) this.kept.add(column);
        else this.kept.delete(column);
      });
    }
  }

  /** Columns no field is mapped to whose label is not a field key (kept, they are stored under that label). */
  private extraColumns(): number[] {
    if (!this.declared()) return [];
    const used = new Set(Object.values(this.mapping));
    const keys = new Set(this.fields.map((field) => field.key));
    return this.headers.flatMap((label, column) => (used.has(column) || keys.has(label) ? [] : [column]));
  }

  /** The fields sent: the mapped ones, then each kept extra column under its own label. */
  sent(): { fields: Field[]; mapping: Mapping } {
    const kept = [...this.kept].filter((column) => !Object.values(this.mapping).includes(column));
    const extra = kept.map((column) => ({ key: this.headers[column]!, label: this.headers[column]!, type: 'string' as const, required: false, pattern: undefined, enum: undefined }));
    return { fields: [...this.fields, ...extra], mapping: { ...this.mapping, ...Object.fromEntries(kept.map((column) => [this.headers[column]!, column])) } };
  }
}
