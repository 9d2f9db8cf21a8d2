import { isoTime } from '../../core/clock';
import type { ServiceContext } from '../context';
import { conflictOnUnique, notFound } from '../errors';
import { checkSchemaLimits } from '../limits';
import { parseInput } from '../validate';
import { acceptTemplateSchema } from './template-schema';
import { UpdateTemplateInput, type Template } from './schemas';
import { toTemplate } from './views';

/**
 * Replaces a template's schema and changes `key`, `metadata` and `source` only when given. Imports already
 * made keep their own snapshot (`originalSchema`), so they are unaffected. Throws validation_failed (also
 * for a declared schema or Table Schema that cannot work: acceptTemplateSchema; a Table Schema is stored
 * converted), not_found, conflict (another template of the account has the new key).
 */
export async function updateTemplate(ctx: ServiceContext, accountId: string, id: string, input: UpdateTemplateInput): Promise<Template> {
  checkSchemaLimits('schema', input.schema, ctx.config.limits);
  const data = parseInput(UpdateTemplateInput, input);
  const schema = acceptTemplateSchema(data.schema);
  const updated = ctx.store.templates.update(accountId, id, {
    schema: JSON.stringify(schema),
    ...(data.key !== undefined && { key: data.key }),
    ...(data.metadata !== undefined && { metadata: JSON.stringify(data.metadata) }),
    ...(data.source !== undefined && { source: data.source }),
    updatedAt: isoTime(ctx.clock),
  });
  const row = await conflictOnUnique(updated, `a template with key ${JSON.stringify(data.key)} already exists`);
  if (!row) throw notFound('template');
  return toTemplate(row);
}
