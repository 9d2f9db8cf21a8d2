import type { RowStatus, StoredRow } from '../../db/store';
import type { ServiceContext } from '../context';
import { buildPage, decodeCursor, rowsWithinBytes, type PageRequest, type Pagination } from '../pagination';
import { parseInput } from '../validate';
import { findAccountImportView } from './get-import';
import { ListRowsQuery, type ImportCounts } from './schemas';

/** Characters of row JSON a page holds at most (besides its first row): large rows make shorter pages. */
export const ROWS_PAGE_BYTES = 4 * 1024 * 1024;

type RowFilters = { status?: RowStatus };

/** A page of an import's rows as stored: each row's JSON text (and errors' text), spliced into the answer as it is. */
export type StoredRowsPage = { rows: StoredRow[]; pagination: Pagination<RowFilters> };

/**
 * One page of an import's rows by rowIndex (keyset on the primary key; `total` is the stored row count, or
 * with `status` the server's count of rows of that status, never a COUNT). A page holds `limit` rows or fewer
 * when they pass ROWS_PAGE_BYTES (its nextCursor then continues after the last row it holds). Each invalid
 * row kept (onInvalid `keep`) comes with its errors. The cursor is bound to the status filter. Throws
 * validation_failed, not_found.
 */
export async function listRows(ctx: ServiceContext, accountId: string, importId: string, input: ListRowsQuery): Promise<StoredRowsPage> {
  const { status, limit, cursor, sortBy, direction } = parseInput(ListRowsQuery, input);
  const imported = await findAccountImportView(ctx, accountId, importId);
  const request: PageRequest<RowFilters, 'number'> = {
    scope: ['rows', accountId, imported.id],
    keyset: 'number',
    limit,
    cursor,
    orderBy: sortBy,
    direction,
    filters: status === undefined ? {} : { status },
  };
  const after = decodeCursor(ctx, request)?.value ?? (direction === 'asc' ? -1 : Number.MAX_SAFE_INTEGER);
  const invalidStored = invalidRowsStored(imported.meta);
  let rows: StoredRow[];
  if (status !== undefined) rows = await ctx.store.rows.ofStatus(imported.id, status, direction, after, limit + 1);
  else {
    rows = await ctx.store.rows.chunk(imported.id, direction, after, limit + 1, ROWS_PAGE_BYTES);
    if (invalidStored > 0 && rows.length > 0) await attachErrors(ctx, imported.id, rows);
  }
  const pageSize = rowsWithinBytes(rows, limit, ROWS_PAGE_BYTES, (row) => row.data.length);
  const total = status === undefined ? imported.rowCount : status === 'invalid' ? invalidStored : imported.rowCount - invalidStored;
  return buildPage(ctx, request, rows, total, (row) => ({ value: row.rowIndex }), pageSize);
}

/** How many rows an import stores with errors, from the server's counts in its meta (0: free-form, or none). */
export function invalidRowsStored(meta: string): number {
  // Only a template with rules stores invalid rows; its counts are the last member of meta (import-writer.ts).
  if (!meta.includes('"erroredRows"')) return 0;
  const counts = (JSON.parse(meta) as { counts?: ImportCounts }).counts;
  return counts === undefined ? 0 : counts.erroredRows - counts.discardedRows;
}

/** Gives rows in row order their errors: one read over their range, on the invalid rows' index. */
export async function attachErrors(ctx: ServiceContext, importId: string, rows: StoredRow[]): Promise<void> {
  const first = rows[0]!.rowIndex;
  const last = rows[rows.length - 1]!.rowIndex;
  const found = await ctx.store.rows.errorsBetween(importId, Math.min(first, last), Math.max(first, last));
  if (found.length === 0) return;
  const byIndex = new Map(found.map((row) => [row.rowIndex, row.errors]));
  for (const row of rows) row.errors = byIndex.get(row.rowIndex) ?? null;
}
