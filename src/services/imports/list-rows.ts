import type { z } from 'zod';
import type { ImportViewRow } from '../../db/store';
import type { ServiceContext } from '../context';
import { buildPage, decodeCursor, rowsWithinBytes, type PageRequest } from '../pagination';
import { parseInput } from '../validate';
import { findAccountImportView } from './get-import';
import { ListRowsQuery } from './schemas';
import { rowPageJson } from './views';

/** Characters of row JSON a page holds at most (besides its first row): large rows make shorter pages. */
export const ROWS_PAGE_BYTES = 4 * 1024 * 1024;

/**
 * One page of an import's rows by rowIndex (keyset on the primary key; `total` is the stored row count, never
 * a COUNT), rendered as JSON text with the stored rows spliced in. A page holds `limit` rows or fewer when
 * they pass ROWS_PAGE_BYTES (its nextCursor then continues after the last row it holds). Throws validation_failed, not_found.
 */
export async function listRows(ctx: ServiceContext, accountId: string, importId: string, input: ListRowsQuery): Promise<string> {
  const query = parseInput(ListRowsQuery, input);
  return rowsPage(ctx, accountId, await findAccountImportView(ctx, accountId, importId), query);
}

/** listRows of an import already read (findAccountImportView or secretKeyImport). Throws validation_failed. */
export async function listRowsOf(ctx: ServiceContext, accountId: string, imported: ImportViewRow, input: ListRowsQuery): Promise<string> {
  return rowsPage(ctx, accountId, imported, parseInput(ListRowsQuery, input));
}

async function rowsPage(ctx: ServiceContext, accountId: string, imported: ImportViewRow, { limit, cursor, sortBy, direction }: z.output<typeof ListRowsQuery>): Promise<string> {
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
  const page = buildPage(ctx, request, rows, imported.rowCount, (row) => ({ value: row.rowIndex }), pageSize);
  return rowPageJson(page.rows, page.pagination);
}
