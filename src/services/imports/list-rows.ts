import type { ServiceContext } from '../context';
import { buildPage, decodeCursor, type PageRequest } from '../pagination';
import { parseInput } from '../validate';
import { findAccountImport } from './get-import';
import { ListRowsQuery } from './schemas';
import { rowPageJson } from './views';

/**
 * One page of an import's rows by rowIndex (keyset on the primary key; `total` is the stored row count, never
 * a COUNT), rendered as JSON text with the stored rows spliced in. Throws validation_failed, not_found.
 */
export async function listRows(ctx: ServiceContext, accountId: string, importId: string, input: ListRowsQuery): Promise<string> {
  const { limit, cursor, sortBy, direction } = parseInput(ListRowsQuery, input);
  const imported = await findAccountImport(ctx, accountId, importId);
  const request: PageRequest<Record<string, never>, 'number'> = {
    scope: ['rows', accountId, imported.id],
    keyset: 'number',
    limit,
    cursor,
    orderBy: sortBy,
    direction,
    filters: {},
  };
  const after = decodeCursor(ctx, request)?.value ?? (direction === 'asc' ? -1 : Number.MAX_SAFE_INTEGER);
  const rows = await ctx.store.rows.chunk(imported.id, direction, after, limit + 1);
  const page = buildPage(ctx, request, rows, imported.rowCount, (row) => ({ value: row.rowIndex }));
  return rowPageJson(page.rows, page.pagination);
}
