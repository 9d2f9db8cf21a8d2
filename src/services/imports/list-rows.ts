import { readRowChunk } from '../../db/queries/import-rows';
import type { ServiceContext } from '../context';
import { validationFailed } from '../errors';
import { parseInput } from '../validate';
import { decodeCursor, encodeCursor } from './cursor';
import { findAccountImport } from './get-import';
import { ListRowsQuery } from './schemas';
import { rowPageJson } from './views';

/**
 * One page of an import's rows by rowIndex (keyset on the primary key; `total` is the stored row count, never
 * a COUNT), rendered as JSON text with the stored rows spliced in. Throws validation_failed, not_found.
 */
export function listRows(ctx: ServiceContext, accountId: string, importId: string, input: ListRowsQuery): string {
  const query = parseInput(ListRowsQuery, input);
  const imported = findAccountImport(ctx, accountId, importId);
  const binding = ['rows', accountId, importId, query.sortBy, query.direction];
  let from = query.direction === 'asc' ? -1 : Number.MAX_SAFE_INTEGER;
  if (query.cursor !== undefined) {
    const position = decodeCursor(ctx, binding, query.cursor);
    if (typeof position.value !== 'number') throw validationFailed([{ path: 'cursor', message: 'is not a rows cursor' }]);
    from = position.value;
  }
  const rows = readRowChunk(ctx.sqlite, imported.id, query.direction, from, query.limit + 1);
  const hasNext = rows.length > query.limit;
  const page = hasNext ? rows.slice(0, query.limit) : rows;
  const last = page[page.length - 1];
  return rowPageJson(page, {
    paging: {
      limit: query.limit,
      count: page.length,
      cursor: query.cursor ?? null,
      nextCursor: hasNext && last ? encodeCursor(ctx, binding, { value: last.rowIndex }) : null,
      hasNext,
      total: imported.rowCount,
    },
    filters: {},
    sort: { orderBy: query.sortBy, direction: query.direction },
  });
}
