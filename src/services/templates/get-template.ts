import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import type { Template } from './schemas';
import { toTemplate } from './views';

/** Reads one template of the account with its full schema. Throws not_found (also for another account's). */
export async function getTemplate(ctx: ServiceContext, accountId: string, id: string): Promise<Template> {
  const row = await ctx.store.templates.find(accountId, id);
  if (!row) throw notFound('template');
  return toTemplate(row);
}
