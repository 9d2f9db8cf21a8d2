import { z } from 'zod';

// The query members and the answer shape every keyset-paginated list shares (pagination.ts reads and signs its
// cursors); with no service context here, so that schemas.ts files can take them.

/** Page size: `min`-100, default 20 (lists allow 0: only the total). Numbers (CLI) or digit strings (query). */
export function pageLimit(min: 0 | 1) {
  const message = `must be an integer from ${min} to 100`;
  return z
    .union([z.number(), z.string().regex(/^-?\d{1,6}$/, message).transform(Number)])
    .pipe(z.number().int(message).min(min, message).max(100, message))
    .default(20);
}

/** Absent, empty or `null` (the spec types it "null or string"; clients send back the null they got) = first page. */
export const PageCursor = z
  .string()
  .max(512)
  .optional()
  .transform((cursor) => (cursor === '' || cursor === 'null' ? undefined : cursor));

export const Direction = z.enum(['asc', 'desc']);
export type Direction = z.infer<typeof Direction>;

/** The response schema of a page of `item`, for the OpenAPI document. */
export function pageSchema<I extends z.ZodType, F extends z.ZodType>(item: I, filters: F) {
  return z.object({
    data: z.array(item),
    pagination: z.object({
      paging: z.object({
        limit: z.int(),
        count: z.int(),
        cursor: z.string().nullable(),
        nextCursor: z.string().nullable(),
        hasNext: z.boolean(),
        total: z.int(),
      }),
      filters,
      sort: z.object({ orderBy: z.string(), direction: Direction }),
    }),
  });
}
