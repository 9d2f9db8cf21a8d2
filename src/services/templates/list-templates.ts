import type { ServiceContext } from '../context';
import { buildPage, decodeCursor, type PageRequest } from '../pagination';
import { parseInput } from '../validate';
import { ListTemplatesInput, type TemplatePage } from './schemas';
import { toTemplateSummary } from './views';

/**
 * Lists the account's templates (without their schemas), newest first by default, by keyset: a page costs
 * the same however deep it is. Throws validation_failed (limit, orderBy, direction, or a cursor that was not
 * made for this account, sort and filters).
 */
export async function listTemplates(ctx: ServiceContext, accountId: string, input: ListTemplatesInput): Promise<TemplatePage> {
  const { limit, cursor, orderBy, direction } = parseInput(ListTemplatesInput, input);
  const request: PageRequest<Record<string, never>, 'string'> = { scope: ['templates', accountId], keyset: 'string', limit, cursor, orderBy, direction, filters: {} };
  const after = decodeCursor(ctx, request);
  const rows = limit === 0 ? [] : await ctx.store.templates.page(accountId, { orderBy, direction, after, limit: limit + 1 });
  const page = buildPage(ctx, request, rows, await ctx.store.templates.count(accountId), (row) => ({ value: row[orderBy], id: row.id }));
  return { data: page.rows.map(toTemplateSummary), pagination: page.pagination };
}
