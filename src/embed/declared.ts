import { DATE_FORMATS, type DateFormat } from '../rules/dates';

/** An enum option as the template dialect writes it (docs/templates.md). */
export interface EnumOption {
  value: string;
  label?: string;
  alternatives?: string[];
}

/** What the steps before the review read of a declared field beyond template.ts's Field. */
export interface FieldRules {
  type: string;
  options: EnumOption[] | undefined;
  formats: DateFormat[] | undefined;
}

/** The template's members the mapping and value steps use (the server validated the schema on write). */
export interface DeclaredRules {
  fields: Map<string, FieldRules>;
  /** Whether columns without a field may be kept (`extraColumns`, `keep` unless the template says `drop`). */
  keepExtraColumns: boolean;
}

export function readDeclared(schema: unknown): DeclaredRules {
  const fields = new Map<string, FieldRules>();
  const body = isObject(schema) ? schema : {};
  for (const raw of Array.isArray(body.fields) ? body.fields : []) {
    if (!isObject(raw) || typeof raw.key !== 'string' || fields.has(raw.key)) continue;
    fields.set(raw.key, { type: typeof raw.type === 'string' ? raw.type : 'string', options: optionsOf(raw), formats: formatsOf(raw.formats) });
  }
  return { fields, keepExtraColumns: body.extraColumns !== 'drop' };
}

function optionsOf(field: Record<string, unknown>): EnumOption[] | undefined {
  const list = Array.isArray(field.options) ? field.options : Array.isArray(field.enum) ? field.enum : undefined;
  return list?.flatMap((option): EnumOption[] => {
    if (typeof option === 'string') return [{ value: option }];
    if (!isObject(option) || typeof option.value !== 'string') return [];
    const texts = Array.isArray(option.alternatives) ? option.alternatives.filter((text): text is string => typeof text === 'string') : [];
    return [{ value: option.value, ...(typeof option.label === 'string' ? { label: option.label } : {}), alternatives: texts }];
  });
}

function formatsOf(formats: unknown): DateFormat[] | undefined {
  if (!Array.isArray(formats)) return undefined;
  const known = formats.filter((format): format is DateFormat => (DATE_FORMATS as readonly unknown[]).includes(format));
  return known.length > 0 ? known : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
