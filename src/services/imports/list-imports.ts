import type { z } from 'zod';
import type { ImportListRow } from '../../db/store';
import type { ServiceContext } from '../context';
import { buildPage, decodeCursor, rowsWithinBytes, type PageRequest } from '../pagination';
import { parseInput } from '../validate';
import { ListImportsQuery, type ImportPage } from './schemas';
import { listItemJson, toListItem } from './views';

/** Characters of stored meta and file a page holds at most (besides its first import). */
export const LIST_PAGE_BYTES = 8 * 1024 * 1024;

/** Stored characters an import adds to a list page (meta is capped, but imports stored before the cap may hold more). */
const listedBytes = (row: Pick<ImportListRow, 'meta' | 'file'>) => row.meta.length + (row.file?.length ?? 0);

/**
 * One page of the account's complete imports, keyset-paginated (no OFFSET: every page costs the same).
 * `limit=0` answers only `total`. A page ends early when its imports' meta pass LIST_PAGE_BYTES. Throws validation_failed (bad parameter, or a cursor that was not made for
 * this account, sort and filters).
 */
export async function listImports(ctx: ServiceContext, accountId: string, input: ListImportsQuery): Promise<ImportPage> {
  const page = await listImportRows(ctx, accountId, input);
  return { data: page.rows.map(toListItem), pagination: page.pagination };
}

/** listImports' answer as JSON text (each import's stored JSON spliced in): the HTTP read path. */
export async function listImportsJson(ctx: ServiceContext, accountId: string, input: ListImportsQuery): Promise<string> {
  return importPageJson(await listImportRows(ctx, accountId, input));
}

/** A page's JSON text, as listImportsJson answers it. */
export function importPageJson(page: ListedImports): string {
  return `{"data":[${page.rows.map(listItemJson).join(',')}],"pagination":${JSON.stringify(page.pagination)}}`;
}

type ListedImports = { rows: ImportListRow[]; pagination: ImportPage['pagination'] };
type ListRequest = PageRequest<ReturnType<typeof listFilters>, 'string'> & { orderBy: z.output<typeof ListImportsQuery>['orderBy'] };

async function listImportRows(ctx: ServiceContext, accountId: string, input: ListImportsQuery): Promise<ListedImports> {
  const request = listRequest(accountId, parseInput(ListImportsQuery, input));
  const { orderBy, direction, filters, limit } = request;
  const after = decodeCursor(ctx, request);
  // Read side by side: on PostgreSQL each is a round trip of its own, on a connection of its own.
  const [rows, total] = await Promise.all([
    limit === 0 ? [] : ctx.store.imports.page(accountId, { orderBy, direction, filters, after, limit: limit + 1 }),
    ctx.store.imports.count(accountId, filters),
  ]);
  return importPage(ctx, request, rows, total);
}

/** The page request of a parsed query: what its cursors are bound to. */
export function listRequest(accountId: string, { limit, cursor, orderBy, direction, ...query }: z.output<typeof ListImportsQuery>): ListRequest {
  return { scope: ['imports', accountId], keyset: 'string', limit, cursor, orderBy, direction, filters: listFilters(query) };
}

function listFilters(query: Omit<z.output<typeof ListImportsQuery>, 'limit' | 'cursor' | 'orderBy' | 'direction'>) {
  return {
    templateId: query.templateId ?? null,
    startDate: query.startDate ?? null,
    endDate: query.endDate ?? null,
    userEmail: query.userEmail ?? null,
    environment: query.environment ?? null,
  };
}

/** The page of `limit + 1` imports read after the request's cursor (none for limit=0). */
export function importPage(ctx: ServiceContext, request: ListRequest, rows: ImportListRow[], total: number): ListedImports {
  return buildPage(ctx, request, rows, total, (row) => ({ value: row[request.orderBy], id: row.id }), rowsWithinBytes(rows, request.limit, LIST_PAGE_BYTES, listedBytes));
}
