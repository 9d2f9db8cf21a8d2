import { z } from 'zod';
import { jsonObject, JsonRecord } from '../json';
import { Direction, PageCursor, pageLimit, pageSchema } from '../page-schemas';

export const TEMPLATE_METADATA_MAX_BYTES = 64 * 1024;

export const TemplateKey = z
  .string()
  .min(1, 'must be 1 to 255 characters')
  .max(255, 'must be 1 to 255 characters')
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')
  .refine((key) => key.trim() === key, 'must not start or end with white space');

export const TemplateSource = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,50}$/, 'must be 1 to 50 letters, digits, "_" or "-"');

// Its size, nesting and number of fields are the operator's limits (IMPORTD_MAX_SCHEMA_*), checked by the
// service verbs (checkSchemaLimits) before this schema runs.
const TemplateSchemaBody = jsonObject(Number.POSITIVE_INFINITY);
const TemplateMetadata = jsonObject(TEMPLATE_METADATA_MAX_BYTES);

/** POST /templates: `key` defaults to `schema.key`; one of them is required. */
export const CreateTemplateInput = z
  .object({
    schema: TemplateSchemaBody,
    key: TemplateKey.optional(),
    metadata: TemplateMetadata.optional(),
    source: TemplateSource.optional(),
  })
  .transform((input, ctx) => {
    if (input.key !== undefined) return { ...input, key: input.key };
    if (input.schema.key === undefined) {
      ctx.addIssue({ code: 'custom', path: ['key'], message: 'is required when schema.key is absent' });
      return z.NEVER;
    }
    const fromSchema = TemplateKey.safeParse(input.schema.key);
    if (!fromSchema.success) {
      ctx.addIssue({ code: 'custom', path: ['schema', 'key'], message: `taken as the template key, it ${fromSchema.error.issues[0]?.message ?? 'is invalid'}` });
      return z.NEVER;
    }
    return { ...input, key: fromSchema.data };
  })
  .meta({ id: 'CreateTemplateInput' });
export type CreateTemplateInput = z.input<typeof CreateTemplateInput>;

/** PUT /templates/{id}: `schema` replaces the schema; `key`, `metadata`, `source` change only when given. */
export const UpdateTemplateInput = z.object({
  schema: TemplateSchemaBody,
  key: TemplateKey.optional(),
  metadata: TemplateMetadata.optional(),
  source: TemplateSource.optional(),
}).meta({ id: 'UpdateTemplateInput' });
export type UpdateTemplateInput = z.input<typeof UpdateTemplateInput>;

/** GET /templates/{id}: `format=frictionless` answers the schema as a Frictionless Table Schema. */
export const GetTemplateInput = z.object({
  format: z
    .enum(['frictionless'], { error: 'must be frictionless, or left out for the stored schema' })
    .optional()
    .describe('frictionless: the schema as a Frictionless Table Schema (409 for a free-form template)'),
});
export type GetTemplateInput = z.input<typeof GetTemplateInput>;

export const TemplateOrderBy = z.enum(['createdAt', 'updatedAt']);

export const ListTemplatesInput = z.object({
  limit: pageLimit(0),
  cursor: PageCursor,
  orderBy: TemplateOrderBy.default('createdAt'),
  direction: Direction.default('desc'),
});
export type ListTemplatesInput = z.input<typeof ListTemplatesInput>;

const TemplateShape = z.object({
  id: z.string(),
  key: z.string(),
  clientId: z.string().describe('the id of the account that owns the template'),
  schema: JsonRecord,
  source: z.string(),
  metadata: JsonRecord,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const Template = TemplateShape.meta({ id: 'Template' });
export type Template = z.infer<typeof Template>;

/** List items leave out `schema` (up to 1 MiB each); GET /templates/{id} has it. */
export const TemplateSummary = TemplateShape.omit({ schema: true }).meta({ id: 'TemplateSummary' });
export type TemplateSummary = z.infer<typeof TemplateSummary>;

export const TemplatePage = pageSchema(TemplateSummary, z.object({})).meta({ id: 'TemplatePage' });
export type TemplatePage = z.infer<typeof TemplatePage>;
