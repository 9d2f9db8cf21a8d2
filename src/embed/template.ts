/**
 * The minimal field format the importer reads inside a template's free-form schema (README "Embedding the
 * importer"): `fields: [{ key, label?, type?, required?, pattern?, enum? }]`. Anything else is ignored.
 */
export interface Field {
  key: string;
  label: string;
  type: FieldType;
  required: boolean;
  pattern: RegExp | undefined;
  enum: string[] | undefined;
}

export type FieldType = 'string' | 'number' | 'boolean' | 'date' | 'email';
const TYPES: readonly string[] = ['string', 'number', 'boolean', 'date', 'email'];

/** The fields a schema declares; malformed entries are skipped rather than failing the whole import. */
export function readFields(schema: unknown): Field[] {
  const fields = isObject(schema) && Array.isArray(schema.fields) ? schema.fields : [];
  const seen = new Set<string>();
  return fields.flatMap((raw): Field[] => {
    if (!isObject(raw) || typeof raw.key !== 'string' || raw.key === '' || seen.has(raw.key)) return [];
    seen.add(raw.key);
    return [
      {
        key: raw.key,
        label: typeof raw.label === 'string' && raw.label !== '' ? raw.label : raw.key,
        type: typeof raw.type === 'string' && TYPES.includes(raw.type) ? (raw.type as FieldType) : 'string',
        required: raw.required === true,
        pattern: typeof raw.pattern === 'string' ? safeRegExp(raw.pattern) : undefined,
        enum: Array.isArray(raw.enum) ? raw.enum.filter((item): item is string => typeof item === 'string') : undefined,
      },
    ];
  });
}

function safeRegExp(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
