import { countImports, listImportPage } from '../../db/queries/imports';
import type { ServiceContext } from '../context';
import { parseInput } from '../validate';
import { decodeCursor, encodeCursor } from './cursor';
import { ListImportsQuery, type ImportPage } from './schemas';
import { toListItem } from './views';

/**
 * One page of the account's complete imports, keyset-paginated (no OFFSET: every page costs the same).
 * `limit=0` answers only `total`. Throws validation_failed (bad parameter, or a cursor that was not made for
 * this sort and these filters).
 */
export function listImports(ctx: ServiceContext, accountId: string, input: ListImportsQuery): ImportPage {
  const query = parseInput(ListImportsQuery, input);
  const filters = {
    templateId: query.templateId ?? null,
    startDate: query.startDate ?? null,
    endDate: query.endDate ?? null,
    userEmail: query.userEmail ?? null,
    environment: query.environment ?? null,
  };
  const sort = { orderBy: query.orderBy, direction: query.direction };
  const binding = ['imports', accountId, sort, filters];
  const position = query.cursor === undefined ? undefined : decodeCursor(ctx, binding, query.cursor);
  const total = countImports(ctx.db, accountId, filters);
  const rows =
    query.limit === 0
      ? []
      : listImportPage(ctx.db, accountId, {
          ...sort,
          filters,
          limit: query.limit + 1,
          after: position && { value: String(position.value), id: position.id ?? '' },
        });
  const hasNext = rows.length > query.limit;
  const items = hasNext ? rows.slice(0, query.limit) : rows;
  const last = items[items.length - 1];
  return {
    data: items.map(toListItem),
    pagination: {
      paging: {
        limit: query.limit,
        count: items.length,
        cursor: query.cursor ?? null,
        nextCursor:
          hasNext && last ? encodeCursor(ctx, binding, { value: query.orderBy === 'createdAt' ? last.createdAt : last.updatedAt, id: last.id }) : null,
        hasNext,
        total,
      },
      filters,
      sort,
    },
  };
}
