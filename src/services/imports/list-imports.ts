import type { ServiceContext } from '../context';
import { buildPage, decodeCursor, type PageRequest } from '../pagination';
import { parseInput } from '../validate';
import { ListImportsQuery, type ImportPage } from './schemas';
import { toListItem } from './views';

/**
 * One page of the account's complete imports, keyset-paginated (no OFFSET: every page costs the same).
 * `limit=0` answers only `total`. Throws validation_failed (bad parameter, or a cursor that was not made for
 * this account, sort and filters).
 */
export async function listImports(ctx: ServiceContext, accountId: string, input: ListImportsQuery): Promise<ImportPage> {
  const { limit, cursor, orderBy, direction, ...query } = parseInput(ListImportsQuery, input);
  const filters = {
    templateId: query.templateId ?? null,
    startDate: query.startDate ?? null,
    endDate: query.endDate ?? null,
    userEmail: query.userEmail ?? null,
    environment: query.environment ?? null,
  };
  const request: PageRequest<typeof filters, 'string'> = { scope: ['imports', accountId], keyset: 'string', limit, cursor, orderBy, direction, filters };
  const after = decodeCursor(ctx, request);
  const rows = limit === 0 ? [] : await ctx.store.imports.page(accountId, { orderBy, direction, filters, after, limit: limit + 1 });
  const page = buildPage(ctx, request, rows, await ctx.store.imports.count(accountId, filters), (row) => ({ value: row[orderBy], id: row.id }));
  return { data: page.rows.map(toListItem), pagination: page.pagination };
}
