import type { StoredRow } from '../../db/store';
import type { ServiceContext } from '../context';
import { buildPage, decodeCursor, rowsWithinBytes, type PageRequest, type Pagination } from '../pagination';
import { parseInput } from '../validate';
import { findAccountImportView } from './get-import';
import { ListRowsQuery } from './schemas';

/** Characters of row JSON a page holds at most (besides its first row): large rows make shorter pages. */
export const ROWS_PAGE_BYTES = 4 * 1024 * 1024;

/** A page of an import's rows as stored: each row's JSON text, spliced into the answer as it is. */
export type StoredRowsPage = { rows: StoredRow[]; pagination: Pagination<Record<string, never>> };

/**
 * One page of an import's rows by rowIndex (keyset on the primary key; `total` is the stored row count, never
 * a COUNT). A page holds `limit` rows or fewer when they pass ROWS_PAGE_BYTES (its nextCursor then continues
 * after the last row it holds). Throws validation_failed, not_found.
 */
export async function listRows(ctx: ServiceContext, accountId: string, importId: string, input: ListRowsQuery): Promise<StoredRowsPage> {
  const { limit, cursor, sortBy, direction } = parseInput(ListRowsQuery, input);
  const imported = await findAccountImportView(ctx, accountId, importId);
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
  const rows = await ctx.store.rows.chunk(imported.id, direction, after, limit + 1, ROWS_PAGE_BYTES);
  const pageSize = rowsWithinBytes(rows, limit, ROWS_PAGE_BYTES, (row) => row.data.length);
  return buildPage(ctx, request, rows, imported.rowCount, (row) => ({ value: row.rowIndex }), pageSize);
}
