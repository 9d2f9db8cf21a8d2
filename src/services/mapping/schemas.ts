/**
 * Contract of the header-mapping service: the request body of
 * POST /v1/intelligence/map-headers and its response. HTTP validation,
 * OpenAPI (through the `.meta({ id })` names) and TypeScript types all derive from these schemas.
 */
import { z } from 'zod';
import { storedText } from '../stored-text';

// Input caps (DESIGN.md "Limits"): the Public Key can call this route, so every dimension of the work is
// bounded by the contract; the pairwise cost left over is checked against a budget before it is paid.
export const MAX_HEADERS = 500;
export const MAX_LABEL_CHARS = 200;
export const MAX_SAMPLES = 20;
export const MAX_SAMPLE_CHARS = 200;
export const MAX_DESCRIPTION_CHARS = 1000;
/** Values of enum fields one import's `meta.valueMapping` may confirm, all fields together. */
export const MAX_CONFIRMED_VALUES = 500;
/** Learned values map-headers returns per schema key: the best confirmed first. */
export const MAX_RETURNED_VALUES = 200;

export const HeaderItem = z
  .object({
    key: z.string().min(1).max(MAX_LABEL_CHARS),
    label: z.string().max(MAX_LABEL_CHARS),
    samples: z.array(z.string().max(MAX_SAMPLE_CHARS)).max(MAX_SAMPLES).optional(),
    description: z.string().max(MAX_DESCRIPTION_CHARS).optional(),
  })
  .meta({ id: 'HeaderItem' });
export type HeaderItem = z.infer<typeof HeaderItem>;

/** Reports every repeated key of a header list at its own path ("schemaHeaders.3.key"). */
function uniqueKeys(items: HeaderItem[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.key))
      ctx.addIssue({ code: 'custom', message: `duplicate key "${item.key}"`, path: [index, 'key'], input: item.key });
    seen.add(item.key);
  });
}

const UNIQUE_KEYS = 'Each item\'s `key` is unique within the list (a repeated key answers 400 validation_failed at its path).';

export const MapHeadersInput = z
  .object({
    schemaHeaders: z.array(HeaderItem).max(MAX_HEADERS).superRefine(uniqueKeys).meta({ description: UNIQUE_KEYS }),
    fileHeaders: z.array(HeaderItem).max(MAX_HEADERS).superRefine(uniqueKeys).meta({ description: UNIQUE_KEYS }),
    templateId: z
      .string()
      .min(1)
      .max(MAX_LABEL_CHARS)
      .optional()
      .meta({
        description:
          "The template the file is imported into: mappings its imports confirmed (`meta.mapping`) are suggested (`source: \"learned\"`). A session token bound to a template stands for it (naming another answers 403 template_not_allowed). Without either, nothing learned is used.",
      }),
  })
  .meta({
    id: 'MapHeadersInput',
    examples: [
      {
        schemaHeaders: [{ key: 'email', label: 'Email' }, { key: 'first_name', label: 'First name' }],
        fileHeaders: [{ key: 'E-mail address', label: 'E-mail address', samples: ['ada@example.com'] }, { key: 'Given name', label: 'Given name' }],
        templateId: '01890f2e-8d3c-7b1a-9f00-3c5d2e1a4b6c',
      },
    ],
  });
export type MapHeadersInput = z.infer<typeof MapHeadersInput>;

export const HeaderMapping = z
  .object({
    fileKey: z.string(),
    confidence: z.number().min(0).max(1),
    source: z
      .enum(['learned'])
      .optional()
      .meta({
        description:
          '`learned`: a label confirmed for this schema key by earlier imports into the template (`meta.mapping`). Preferred (confidence 0.97) once confirmed by a Secret Key import or by IMPORTD_LEARN_MIN_END_USERS distinct end-users; before that a suggestion (0.9) that fills in only where the matcher is less sure. Never taken over an exact-name match.',
      }),
    values: z
      .record(z.string(), z.string())
      .optional()
      .meta({
        description: `Values of this (enum) field confirmed by earlier imports into the template (\`meta.valueMapping\`): file value -> option value, at most ${MAX_RETURNED_VALUES}, those preferred (a Secret Key import, or IMPORTD_LEARN_MIN_END_USERS distinct end-users) winning over those fewer confirmed. Only the template's own, never another account's. An importer takes an option whose value, label or alternative the file value is first.`,
      }),
  })
  .meta({ id: 'HeaderMapping' });
export type HeaderMapping = z.infer<typeof HeaderMapping>;

/** One entry per schema key that found a match; unmatched keys are left out. */
export const MapHeadersOutput = z.record(z.string(), HeaderMapping).meta({ id: 'MapHeadersOutput' });
export type MapHeadersOutput = z.infer<typeof MapHeadersOutput>;

const MappingKey = storedText(z.string().min(1).max(MAX_LABEL_CHARS));
// trim: a blank label would match a blank file header (learned-mappings.ts compares labels trimmed).
const MappingLabel = MappingKey.regex(/\S/, 'must not be blank');

/**
 * The mapping an end-user confirmed, sent with an import as `meta.mapping`: schema key -> the file header
 * label it was mapped to. The account remembers it for later map-headers calls. Checked entry by entry and
 * kept as sent: `z.record` would skip a `__proto__` member unchecked, and a schema key may be "__proto__".
 */
export const ConfirmedMapping = z
  .custom<Record<string, string>>((value) => isJsonObject(value), 'must be a JSON object')
  .superRefine((mapping, ctx) => {
    const entries = Object.entries(mapping);
    if (entries.length > MAX_HEADERS) {
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_HEADERS} schema keys` });
      return;
    }
    for (const [key, label] of entries) {
      const keyIssue = MappingKey.safeParse(key).error?.issues[0];
      if (keyIssue) ctx.addIssue({ code: 'custom', message: `invalid schema key: ${keyIssue.message}`, path: [key] });
      const labelIssue = MappingLabel.safeParse(label).error?.issues[0];
      if (labelIssue) ctx.addIssue({ code: 'custom', message: labelIssue.message, path: [key] });
    }
  })
  .meta({
    id: 'ConfirmedMapping',
    type: 'object',
    maxProperties: MAX_HEADERS,
    propertyNames: { minLength: 1, maxLength: MAX_LABEL_CHARS },
    additionalProperties: { type: 'string', minLength: 1, maxLength: MAX_LABEL_CHARS, pattern: '\\S' },
  } as Record<string, unknown>);
export type ConfirmedMapping = z.infer<typeof ConfirmedMapping>;

/**
 * The options the end-user confirmed for enum fields' values, sent with an import as `meta.valueMapping`:
 * schema key -> { value as in the file -> option value }. Remembered like `meta.mapping`. Checked entry by
 * entry (a key or a value may be "__proto__").
 */
export const ConfirmedValueMapping = z
  .custom<Record<string, Record<string, string>>>((value) => isJsonObject(value), 'must be a JSON object')
  .superRefine((mapping, ctx) => {
    let values = 0;
    for (const [key, options] of Object.entries(mapping)) {
      const keyIssue = MappingKey.safeParse(key).error?.issues[0];
      if (keyIssue) ctx.addIssue({ code: 'custom', message: `invalid schema key: ${keyIssue.message}`, path: [key] });
      if (!isJsonObject(options)) {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object of file value -> option value', path: [key] });
        continue;
      }
      for (const [value, option] of Object.entries(options)) {
        values += 1;
        const issue = MappingLabel.safeParse(value).error?.issues[0] ?? MappingLabel.safeParse(option).error?.issues[0];
        if (issue) ctx.addIssue({ code: 'custom', message: issue.message, path: [key, value] });
      }
    }
    if (values > MAX_CONFIRMED_VALUES) ctx.addIssue({ code: 'custom', message: `at most ${MAX_CONFIRMED_VALUES} values in all` });
  })
  .meta({
    id: 'ConfirmedValueMapping',
    type: 'object',
    propertyNames: { minLength: 1, maxLength: MAX_LABEL_CHARS },
    additionalProperties: { type: 'object', additionalProperties: { type: 'string', minLength: 1, maxLength: MAX_LABEL_CHARS, pattern: '\\S' } },
  } as Record<string, unknown>);
export type ConfirmedValueMapping = z.infer<typeof ConfirmedValueMapping>;

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const LearnedMapping = z.object({
  templateId: z.string(),
  templateKey: z.string(),
  schemaKey: z.string(),
  /** The file header's label; null for a learned value. */
  fileLabel: z.string().nullable(),
  /** A learned value of an enum field (as in the file), and the option it stands for; null for a header label. */
  fileValue: z.string().nullable(),
  option: z.string().nullable(),
  /** Distinct end-users who confirmed the pair. */
  endUsers: z.number().int(),
  /** A Secret Key (or operator) import confirmed it. */
  secretKey: z.boolean(),
  /** Offered at the preferred confidence (0.97) rather than as a suggestion. */
  preferred: z.boolean(),
  updatedAt: z.string(),
});
export type LearnedMapping = z.infer<typeof LearnedMapping>;

const TemplateRef = z.string().min(1).max(MAX_LABEL_CHARS);
/** One template's learned mappings (a key or an id), or one schema key's of it; or the whole account's. */
export const ForgetLearnedInput = z.union([
  z.object({ template: TemplateRef, schemaKey: z.string().min(1).max(MAX_LABEL_CHARS).optional() }),
  z.object({ all: z.literal(true) }),
]);
export type ForgetLearnedInput = z.infer<typeof ForgetLearnedInput>;
