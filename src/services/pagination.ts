import { createHash } from 'node:crypto';
import { z } from 'zod';
import { validationFailed } from './errors';

// Keyset pagination shared by every list (DESIGN.md "Pagination"): the cursor is base64url JSON of the last
// item's sort value and id, plus a short hash of the sort and filters it was made for.

/** 1-100, default 20; 0 answers only the total. Numbers (CLI) or digit strings (query strings). */
export const PageLimit = z
  .union([z.number(), z.string().regex(/^\d{1,3}$/, 'must be an integer from 0 to 100').transform(Number)])
  .pipe(z.number().int('must be an integer from 0 to 100').min(0, 'must be an integer from 0 to 100').max(100, 'must be an integer from 0 to 100'))
  .default(20);

/** Absent, empty or `null` (the spec types it "null or string") all mean the first page. */
export const PageCursor = z
  .string()
  .max(512)
  .optional()
  .transform((cursor) => (cursor === '' || cursor === 'null' ? undefined : cursor));

export const Direction = z.enum(['asc', 'desc']);
export type Direction = z.infer<typeof Direction>;

/** Where a page ends: the sort value and id of its last item. */
export interface Keyset {
  value: string;
  id: string;
}

/** What a cursor is bound to: the sort and the filters of the query. */
export interface PageQuery<F extends Record<string, unknown>> {
  limit: number;
  cursor: string | undefined;
  orderBy: string;
  direction: Direction;
  filters: F;
}

export interface Page<T, F> {
  data: T[];
  pagination: {
    paging: { limit: number; count: number; cursor: string | null; nextCursor: string | null; hasNext: boolean; total: number };
    filters: F;
    sort: { orderBy: string; direction: Direction };
  };
}

/** Decodes the query's cursor, or throws validation_failed (path `cursor`) when it is foreign or corrupt. */
export function decodeCursor(query: PageQuery<Record<string, unknown>>): Keyset | undefined {
  if (query.cursor === undefined) return undefined;
  const bad = () => validationFailed([{ path: 'cursor', message: 'is not a cursor of this list with this sort and these filters' }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  const shape = z.object({ b: z.literal(bindingOf(query)), v: z.string().max(100), i: z.string().max(100) }).safeParse(parsed);
  if (!shape.success) throw bad();
  return { value: shape.data.v, id: shape.data.i };
}

/**
 * Builds the page from up to `limit + 1` rows fetched after the cursor (the extra row only says whether a
 * next page exists) and the total of the filtered list.
 */
export function buildPage<R, T, F extends Record<string, unknown>>(
  rows: R[],
  query: PageQuery<F>,
  total: number,
  keysetOf: (row: R) => Keyset,
  render: (row: R) => T,
): Page<T, F> {
  const hasNext = query.limit > 0 && rows.length > query.limit;
  const pageRows = rows.slice(0, query.limit);
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(render),
    pagination: {
      paging: {
        limit: query.limit,
        count: pageRows.length,
        cursor: query.cursor ?? null,
        nextCursor: hasNext && last ? encodeCursor(query, keysetOf(last)) : null,
        hasNext,
        total,
      },
      filters: query.filters,
      sort: { orderBy: query.orderBy, direction: query.direction },
    },
  };
}

/** The response schema of a list of `item`, for the OpenAPI document. */
export function pageSchema<I extends z.ZodType, F extends z.ZodType>(item: I, filters: F) {
  return z.object({
    data: z.array(item),
    pagination: z.object({
      paging: z.object({
        limit: z.number().int(),
        count: z.number().int(),
        cursor: z.string().nullable(),
        nextCursor: z.string().nullable(),
        hasNext: z.boolean(),
        total: z.number().int(),
      }),
      filters: filters,
      sort: z.object({ orderBy: z.string(), direction: Direction }),
    }),
  });
}

function encodeCursor(query: PageQuery<Record<string, unknown>>, at: Keyset): string {
  return Buffer.from(JSON.stringify({ b: bindingOf(query), v: at.value, i: at.id })).toString('base64url');
}

function bindingOf(query: PageQuery<Record<string, unknown>>): string {
  const filters = Object.entries(query.filters).sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256')
    .update(JSON.stringify([query.orderBy, query.direction, filters]))
    .digest('base64url')
    .slice(0, 16);
}
