import type { z } from 'zod';
import type { ImportDetailRow } from '../../db/store';
import type { ServiceContext } from '../context';
import { buildPage, decodeCursor, paginationOf, rowsWithinBytes, type PageRequest } from '../pagination';
import { parseInput } from '../validate';
import { findAccountImportView } from './get-import';
import { ListRowsQuery } from './schemas';
import { jsonPageBytes, rowPageJson, type JsonBody } from './views';

/** Characters of row JSON a page holds at most (besides its first row): large rows make shorter pages. */
export const ROWS_PAGE_BYTES = 4 * 1024 * 1024;

/**
 * One page of an import's rows by rowIndex (keyset on the primary key; `total` is the stored row count, never
 * a COUNT), rendered as JSON with the stored rows spliced in: text, or bytes when the store renders the page (rows.jsonPage). A page holds `limit` rows or fewer when
 * they pass ROWS_PAGE_BYTES (its nextCursor then continues after the last row it holds). Throws validation_failed, not_found.
 */
export async function listRows(ctx: ServiceContext, accountId: string, importId: string, input: ListRowsQuery): Promise<JsonBody> {
  const query = parseInput(ListRowsQuery, input);
  return rowsPage(ctx, accountId, await findAccountImportView(ctx, accountId, importId), query);
}

/** listRows of an import already read (findAccountImportView or secretKeyImport). Throws validation_failed. */
export async function listRowsOf(ctx: ServiceContext, accountId: string, imported: ImportDetailRow, input: ListRowsQuery): Promise<JsonBody> {
  return rowsPage(ctx, accountId, imported, parseInput(ListRowsQuery, input));
}

async function rowsPage(ctx: ServiceContext, accountId: string, imported: ImportDetailRow, { limit, cursor, sortBy, direction }: z.output<typeof ListRowsQuery>): Promise<JsonBody> {
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
  // The common page (ascending, rows of ordinary size) as the store renders it; otherwise row by row.
  const rendered = direction === 'asc' ? await ctx.store.rows.jsonPage(imported.id, after, limit, ROWS_PAGE_BYTES) : undefined;
  if (rendered) {
    const next = rendered.hasMore && rendered.lastRowIndex !== undefined ? { value: rendered.lastRowIndex } : undefined;
    return jsonPageBytes(rendered.json, paginationOf(ctx, request, rendered.count, next, imported.rowCount));
  }
  const rows = await ctx.store.rows.chunk(imported.id, direction, after, limit + 1, ROWS_PAGE_BYTES);
  const pageSize = rowsWithinBytes(rows, limit, ROWS_PAGE_BYTES, (row) => row.data.length);
  const page = buildPage(ctx, request, rows, imported.rowCount, (row) => ({ value: row.rowIndex }), pageSize);
  return rowPageJson(page.rows, page.pagination);
}
