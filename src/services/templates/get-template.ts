import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import { parseInput } from '../validate';
import { GetTemplateInput, type Template } from './schemas';
import { tableSchemaOf } from './template-schema';
import { toTemplate } from './views';

/**
 * Reads one template of the account with its full schema; `format: 'frictionless'` gives the schema as a
 * Frictionless Table Schema. Throws validation_failed (an unknown format), not_found (also for another
 * account's), conflict (a Table Schema asked of a free-form template).
 */
export async function getTemplate(ctx: ServiceContext, accountId: string, id: string, input: GetTemplateInput = {}): Promise<Template> {
  const { format } = parseInput(GetTemplateInput, input);
  const row = await ctx.store.templates.find(accountId, id);
  if (!row) throw notFound('template');
  const template = toTemplate(row);
  return format === 'frictionless' ? { ...template, schema: tableSchemaOf(template.schema) } : template;
}
