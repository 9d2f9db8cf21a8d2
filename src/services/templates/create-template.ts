import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import type { ServiceContext } from '../context';
import { conflictOnUnique } from '../errors';
import { checkSchemaLimits } from '../limits';
import { parseInput } from '../validate';
import { acceptTemplateSchema } from './template-schema';
import { CreateTemplateInput, type Template } from './schemas';
import { toTemplate } from './views';

/** The source of templates made through the API unless the body names another (DESIGN.md "Imports"). */
export const DEFAULT_TEMPLATE_SOURCE = 'studio';

/**
 * Creates a template of the account; its key is `key`, else `schema.key`. Throws validation_failed (also
 * for a declared schema or Table Schema that cannot work: acceptTemplateSchema; a Table Schema is stored
 * converted), conflict (the account already has a template with that key).
 */
export async function createTemplate(ctx: ServiceContext, accountId: string, input: CreateTemplateInput): Promise<Template> {
  checkSchemaLimits('schema', input.schema, ctx.config.limits);
  const data = parseInput(CreateTemplateInput, input);
  const schema = acceptTemplateSchema(data.schema);
  const now = isoTime(ctx.clock);
  const row = {
    id: newId(),
    accountId,
    key: data.key,
    schema: JSON.stringify(schema),
    source: data.source ?? DEFAULT_TEMPLATE_SOURCE,
    metadata: JSON.stringify(data.metadata ?? {}),
    createdAt: now,
    updatedAt: now,
  };
  // The unique index decides, so two concurrent creates with one key cannot both succeed.
  await conflictOnUnique(ctx.store.templates.insert(row), `a template with key ${JSON.stringify(data.key)} already exists`);
  return toTemplate(row);
}
