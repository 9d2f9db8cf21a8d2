import type { RowStatus, StoredRow } from '../../db/store';
import type { ServiceContext } from '../context';
import { buildPage, decodeCursor, rowsWithinBytes, type PageRequest, type Pagination } from '../pagination';
import { parseInput } from '../validate';
import { findAccountImportView } from './get-import';
import { ListRowsQuery, type DatasetChanges, type ImportCounts } from './schemas';
import type { ImportViewRow } from '../../db/store';
import { previousValues, type RowChange } from '../../rules';
import { validationFailed } from '../errors';

/** Characters of row JSON a page holds at most (besides its first row): large rows make shorter pages. */
export const ROWS_PAGE_BYTES = 4 * 1024 * 1024;

type RowFilters = { status?: RowStatus; change?: RowChange };

/** A page of an import's rows as stored: each row's JSON text (and errors' text), spliced into the answer as it is. */
export type StoredRowsPage = { rows: (StoredRow & { previous?: string })[]; pagination: Pagination<RowFilters> };

/**
 * One page of an import's rows by rowIndex (keyset on the primary key; `total` is the stored row count, or
 * with `status` the server's count of rows of that status, never a COUNT). A page holds `limit` rows or fewer
 * when they pass ROWS_PAGE_BYTES (its nextCursor then continues after the last row it holds). Each invalid
 * row kept (onInvalid `keep`) comes with its errors. The cursor is bound to the status filter. Throws
 * validation_failed, not_found.
 */
export async function listRows(ctx: ServiceContext, accountId: string, importId: string, input: ListRowsQuery): Promise<StoredRowsPage> {
  const { status, change, limit, cursor, sortBy, direction } = parseInput(ListRowsQuery, input);
  const imported = await findAccountImportView(ctx, accountId, importId);
  if (change !== undefined) return await listChangedRows(ctx, imported, { change, status, limit, cursor, direction });
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

/**
 * A page of the rows of an import into a keyed template that applying it classified `change`, in row order;
 * updated rows carry the previous values of the fields that changed. `total` is the import's count of them.
 */
async function listChangedRows(
  ctx: ServiceContext,
  imported: ImportViewRow,
  query: { change: RowChange; status: RowStatus | undefined; limit: number; cursor: string | undefined; direction: 'asc' | 'desc' },
): Promise<StoredRowsPage> {
  if (!imported.changes) throw validationFailed([{ path: 'change', message: 'the import was not applied to a dataset (its template has no primaryKey)' }]);
  if (query.status !== undefined || query.direction !== 'asc') throw validationFailed([{ path: 'change', message: 'goes with neither status nor direction=desc' }]);
  const request: PageRequest<RowFilters, 'number'> = { scope: ['rows', imported.accountId, imported.id], keyset: 'number', limit: query.limit, cursor: query.cursor, orderBy: 'rowIndex', direction: 'asc', filters: { change: query.change } };
  const after = decodeCursor(ctx, request)?.value ?? -1;
  const found = await ctx.store.datasets.changedRows(imported.id, query.change, after, query.limit + 1);
  const rows = found.map(({ rowIndex, data, previous }) => ({
    rowIndex,
    data,
    errors: null,
    ...(previous === null ? {} : { previous: JSON.stringify(previousValues(JSON.parse(previous) as Record<string, unknown>, JSON.parse(data) as Record<string, unknown>)) }),
  }));
  const total = (JSON.parse(imported.changes) as DatasetChanges)[query.change];
  return buildPage(ctx, request, rows, total, (row) => ({ value: row.rowIndex }), rowsWithinBytes(rows, query.limit, ROWS_PAGE_BYTES, (row) => row.data.length));
}
