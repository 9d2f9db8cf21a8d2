import * as z from 'zod';
import { DATE_FORMATS } from './dates';
import { isPhoneCountry } from './phones';
import { compilePattern } from './patterns';
import { foldText } from './text';

// The declared template dialect (docs/templates.md): a template schema whose `fields` is an array. Field
// members the dialect does not name are kept and ignored, so schemas written for other tools still load.

export const FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'date', 'datetime', 'email', 'phone', 'url', 'enum'] as const;
export const TRANSFORMS = ['trim', 'collapseWhitespace', 'lowercase', 'uppercase', 'titlecase'] as const;
export const MAX_DECLARED_FIELDS = 2000;

export type FieldType = (typeof FIELD_TYPES)[number];

/**
 * A template's `review` (docs/templates.md "Review"): `required` stores its imports as pending until a Secret
 * Key holder approves them; `none` (the default) lets them count at once. Any template may set it.
 */
export const REVIEW_POLICIES = ['required', 'none'] as const;
export const ReviewPolicy = z.enum(REVIEW_POLICIES, { error: `must be one of ${REVIEW_POLICIES.join(', ')}` });
export type Transform = (typeof TRANSFORMS)[number];

const Text = z.string().max(10_000);
const Cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

// A bare string is an option of that value.
const EnumOption = z.preprocess(
  (option) => (typeof option === 'string' ? { value: option } : option),
  z.looseObject({
    value: Text,
    label: Text.optional(),
    alternatives: z.array(Text).max(1000).optional(),
  }),
);

const FieldObject = z.looseObject({
  key: z.string().min(1, 'must be 1 to 255 characters').max(255, 'must be 1 to 255 characters'),
  label: Text.optional(),
  description: Text.optional(),
  type: z.enum(FIELD_TYPES, { error: `must be one of ${FIELD_TYPES.join(', ')}` }).default('string'),
  required: z.boolean().optional(),
  unique: z.boolean().optional(),
  pattern: z.string().max(10_000).optional(),
  errorMessage: Text.optional(),
  minLength: z.number().int().nonnegative().optional(),
  maxLength: z.number().int().nonnegative().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  decimals: z.number().int().min(0).max(20).optional(),
  options: z.array(EnumOption).max(10_000).optional(),
  // The browser importer's first dialect: `enum: [values]`, read as options without alternatives.
  enum: z.array(Text).max(10_000).optional(),
  formats: z.array(z.enum(DATE_FORMATS, { error: `must be one of ${DATE_FORMATS.join(', ')}` })).min(1).optional(),
  numberFormat: z.enum(['us', 'eu', 'auto']).optional(),
  defaultCountry: z.string().refine(isPhoneCountry, 'must be a two-letter country code libphonenumber knows').optional(),
  transforms: z.array(z.enum(TRANSFORMS, { error: `must be one of ${TRANSFORMS.join(', ')}` })).optional(),
  default: Cell.optional(),
});

// A bare string is a field of that key (free-form schemas wrote `fields: ["email", ...]`).
const FieldEntry = z.preprocess((entry) => (typeof entry === 'string' ? { key: entry } : entry), FieldObject);

export const DeclaredSchema = z
  .looseObject({
    fields: z.array(FieldEntry).max(MAX_DECLARED_FIELDS, `must declare at most ${MAX_DECLARED_FIELDS} fields`),
    uniqueTogether: z.array(z.array(z.string()).min(2, 'must name at least two keys')).max(100).optional(),
    // Frictionless' name and forms: one field name or several; the key of the template's dataset (docs/templates.md).
    primaryKey: z.union([z.string(), z.array(z.string()).min(1, 'must name at least one field').max(100)]).optional(),
    onInvalid: z.enum(['reject', 'keep', 'discard']).default('keep'),
    extraColumns: z.enum(['drop', 'keep']).default('keep'),
    review: ReviewPolicy.optional(),
  })
  .superRefine((schema, ctx) => {
    const keys = new Set<string>();
    schema.fields.forEach((field, index) => {
      const at = (member: string) => ['fields', index, member];
      if (keys.has(field.key)) ctx.addIssue({ code: 'custom', path: at('key'), message: `declares ${JSON.stringify(field.key)} a second time` });
      keys.add(field.key);
      if (field.type === 'enum' && (field.options ?? field.enum ?? []).length === 0) {
        ctx.addIssue({ code: 'custom', path: at('options'), message: 'an enum needs at least one option' });
      }
      if (field.min !== undefined && field.max !== undefined && field.min > field.max) ctx.addIssue({ code: 'custom', path: at('min'), message: 'must not be greater than max' });
      if (field.minLength !== undefined && field.maxLength !== undefined && field.minLength > field.maxLength) {
        ctx.addIssue({ code: 'custom', path: at('minLength'), message: 'must not be greater than maxLength' });
      }
      if (field.pattern !== undefined) {
        const problem = compilePattern(field.pattern).problem;
        if (problem !== undefined) ctx.addIssue({ code: 'custom', path: at('pattern'), message: `does not compile: ${problem}` });
      }
      const owners = new Map<string, string>();
      field.options?.forEach((option, i) => {
        for (const text of optionTexts(option)) {
          const folded = foldText(text);
          const owner = owners.get(folded);
          if (owner !== undefined && owner !== option.value) {
            ctx.addIssue({ code: 'custom', path: ['fields', index, 'options', i], message: `${JSON.stringify(text)} also names option ${JSON.stringify(owner)}` });
          }
          owners.set(folded, option.value);
        }
      });
    });
    schema.uniqueTogether?.forEach((group, index) => {
      group.forEach((key, i) => {
        if (!keys.has(key)) ctx.addIssue({ code: 'custom', path: ['uniqueTogether', index, i], message: `${JSON.stringify(key)} is not a declared field` });
      });
    });
    const primaryKey = schema.primaryKey;
    (typeof primaryKey === 'string' ? [primaryKey] : (primaryKey ?? [])).forEach((key, i) => {
      const path = typeof primaryKey === 'string' ? ['primaryKey'] : ['primaryKey', i];
      if (!keys.has(key)) ctx.addIssue({ code: 'custom', path, message: `${JSON.stringify(key)} is not a declared field` });
    });
  });

export type DeclaredSchema = z.output<typeof DeclaredSchema>;
export type DeclaredField = DeclaredSchema['fields'][number];

export function optionTexts(option: { value: string; label?: string; alternatives?: string[] }): string[] {
  return [option.value, ...(option.label === undefined ? [] : [option.label]), ...(option.alternatives ?? [])];
}

/** A declared schema's primaryKey as a list of field keys (empty: the template is not keyed). */
export function primaryKeyOf(schema: Pick<DeclaredSchema, 'primaryKey'>): string[] {
  return typeof schema.primaryKey === 'string' ? [schema.primaryKey] : (schema.primaryKey ?? []);
}

/** Whether a template schema is declared (its `fields` an array): only those are checked. */
export function isDeclared(schema: unknown): schema is { fields: unknown[] } {
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema) && Array.isArray((schema as { fields?: unknown }).fields);
}

/** Whether a stored template schema (declared or free-form) requires review of its imports. */
export function requiresReview(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as { review?: unknown }).review === 'required';
}
