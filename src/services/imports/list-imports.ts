import type { z } from 'zod';
import type { ImportListRow } from '../../db/store';
import type { ServiceContext } from '../context';
import { buildPage, decodeCursor, rowsWithinBytes, type PageRequest } from '../pagination';
import { parseInput } from '../validate';
import { ListImportsQuery, type ImportPage } from './schemas';

/** Characters of stored meta and file a page holds at most (besides its first import). */
export const LIST_PAGE_BYTES = 8 * 1024 * 1024;

/** Stored characters an import adds to a list page (meta is capped, but imports stored before the cap may hold more). */
const listedBytes = (row: Pick<ImportListRow, 'meta' | 'file'>) => row.meta.length + (row.file?.length ?? 0);

/** A page of imports as stored (the CLI renders each with toListItem, the HTTP route splices their JSON in). */
export type ImportRowsPage = { rows: ImportListRow[]; pagination: ImportPage['pagination'] };

/**
 * One page of the account's complete imports, keyset-paginated (no OFFSET: every page costs the same).
 * `limit=0` answers only `total`. A page ends early when its imports' meta pass LIST_PAGE_BYTES. Throws
 * validation_failed (bad parameter, or a cursor that was not made for this account, sort and filters).
 */
export async function listImports(ctx: ServiceContext, accountId: string, input: ListImportsQuery): Promise<ImportRowsPage> {
  const request = listRequest(accountId, parseInput(ListImportsQuery, input));
  const { orderBy, direction, filters, limit } = request;
  const after = decodeCursor(ctx, request);
  // Read side by side: on PostgreSQL each is a round trip of its own, on a connection of its own.
  const [rows, total] = await Promise.all([
    limit === 0 ? [] : ctx.store.imports.page(accountId, { orderBy, direction, filters, after, limit: limit + 1 }),
    ctx.store.imports.count(accountId, filters),
  ]);
  return buildPage(ctx, request, rows, total, (row) => ({ value: row[request.orderBy], id: row.id }), rowsWithinBytes(rows, limit, LIST_PAGE_BYTES, listedBytes));
}

type ListRequest = PageRequest<ReturnType<typeof listFilters>, 'string'> & { orderBy: z.output<typeof ListImportsQuery>['orderBy'] };

/** The page request of a parsed query: what its cursors are bound to. */
function listRequest(accountId: string, { limit, cursor, orderBy, direction, ...query }: z.output<typeof ListImportsQuery>): ListRequest {
  return { scope: ['imports', accountId], keyset: 'string', limit, cursor, orderBy, direction, filters: listFilters(query) };
}

function listFilters(query: Omit<z.output<typeof ListImportsQuery>, 'limit' | 'cursor' | 'orderBy' | 'direction'>) {
  return {
    templateId: query.templateId ?? null,
    startDate: query.startDate ?? null,
    endDate: query.endDate ?? null,
    userEmail: query.userEmail ?? null,
    environment: query.environment ?? null,
    status: query.status ?? null,
  };
}
