import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Direction } from './page-schemas';
import type { ServiceContext } from './context';
import { validationFailed } from './errors';

// Keyset pagination of every list (DESIGN.md "Pagination"). The cursor is base64url JSON of the last item's
// position plus a MAC keyed by the session secret over that position and what the cursor is bound to: the
// list and its owner (`scope`: list name, account, parent ids), the sort and the filters. An edited or forged
// cursor, or one replayed against another list, account, sort or filter set, fails the MAC and is rejected.

/** Where a page ends: the last item's sort value and, when values can tie, its id. */
export type Keyset = { value: string; id: string } | { value: number };
type KeysetKind = 'string' | 'number';
type KeysetOf<K extends KeysetKind> = Extract<Keyset, { value: K extends 'string' ? string : number }>;

const keysetShapes = {
  // A dataset's key text (records, missing keys) is a keyset value of its own: longer than a time.
  string: z.object({ v: z.string().max(2000), i: z.string().max(100) }).transform(({ v, i }) => ({ value: v, id: i })),
  number: z.object({ v: z.int().min(0) }).transform(({ v }) => ({ value: v })),
};
// Built once: zod compiles a schema on its first parse, which cost a cursor page more than its SQL.
const signature = z.object({ m: z.string().max(100) });

/** One page request of one list: the parsed query plus what its cursors are bound to. */
export interface PageRequest<F extends Record<string, unknown>, K extends KeysetKind = KeysetKind> {
  /** The list and its owner, e.g. `['imports', accountId]`; a cursor is valid only within the same scope. */
  scope: readonly unknown[];
  keyset: K;
  limit: number;
  cursor: string | undefined;
  orderBy: string;
  direction: Direction;
  filters: F;
}

export interface Pagination<F> {
  paging: { limit: number; count: number; cursor: string | null; nextCursor: string | null; hasNext: boolean; total: number };
  filters: F;
  sort: { orderBy: string; direction: Direction };
}

/** The position after which the page starts (undefined: first page). Throws validation_failed (path `cursor`). */
export function decodeCursor<K extends KeysetKind>(
  ctx: ServiceContext,
  request: PageRequest<Record<string, unknown>, K>,
): KeysetOf<K> | undefined {
  return request.cursor === undefined ? undefined : verifyCursor(ctx, request, readCursor(request.keyset, request.cursor));
}

/** A cursor's position and MAC, not yet checked against any list. */
interface ReadCursor<K extends KeysetKind> {
  position: KeysetOf<K>;
  mac: string;
}

/**
 * A cursor's position before its list is known (a read that learns the account with the page); trusted only
 * once verifyCursor accepted it. Throws validation_failed (path `cursor`).
 */
function readCursor<K extends KeysetKind>(keyset: K, cursor: string): ReadCursor<K> {
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const signed = signature.safeParse(payload);
  const position = keysetShapes[keyset].safeParse(payload);
  if (!signed.success || !position.success) throw invalidCursor();
  return { position: position.data as KeysetOf<K>, mac: signed.data.m };
}

/** The cursor's position when it was made for this request's list, sort and filters. Throws validation_failed (path `cursor`). */
function verifyCursor<K extends KeysetKind>(ctx: ServiceContext, request: PageRequest<Record<string, unknown>, K>, read: ReadCursor<K>): KeysetOf<K> {
  const expected = Buffer.from(mac(ctx, request, read.position));
  const given = Buffer.from(read.mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidCursor();
  return read.position;
}

/**
 * Splits up to `limit + 1` rows fetched after the cursor into the page's rows (the extra row only says
 * whether a next page exists) and its `pagination` member, whose nextCursor is signed for this request.
 * `pageSize` (default `limit`) is smaller for a page cut short by a byte budget.
 */
export function buildPage<R, F extends Record<string, unknown>, K extends KeysetKind>(
  ctx: ServiceContext,
  request: PageRequest<F, K>,
  rows: R[],
  total: number,
  keysetOf: (row: R) => KeysetOf<K>,
  pageSize = request.limit,
): { rows: R[]; pagination: Pagination<F> } {
  const hasNext = pageSize > 0 && rows.length > pageSize;
  const pageRows = rows.slice(0, pageSize);
  const last = pageRows[pageRows.length - 1];
  return { rows: pageRows, pagination: paginationOf(ctx, request, pageRows.length, hasNext && last ? keysetOf(last) : undefined, total) };
}

/** A page's `pagination` member: `next` is the last item's position when another page follows (its nextCursor is signed for this request). */
export function paginationOf<F extends Record<string, unknown>, K extends KeysetKind>(
  ctx: ServiceContext,
  request: PageRequest<F, K>,
  count: number,
  next: KeysetOf<K> | undefined,
  total: number,
): Pagination<F> {
  return {
    paging: {
      limit: request.limit,
      count,
      cursor: request.cursor ?? null,
      nextCursor: next ? encodeCursor(ctx, request, next) : null,
      hasNext: next !== undefined,
      total,
    },
    filters: request.filters,
    sort: { orderBy: request.orderBy, direction: request.direction },
  };
}

function encodeCursor(ctx: ServiceContext, request: PageRequest<Record<string, unknown>>, at: Keyset): string {
  const payload = { v: at.value, i: 'id' in at ? at.id : undefined, m: mac(ctx, request, at) };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

function mac(ctx: ServiceContext, request: PageRequest<Record<string, unknown>>, at: Keyset): string {
  const filters = Object.entries(request.filters).sort(([a], [b]) => (a < b ? -1 : 1));
  const binding = [...request.scope, request.keyset, request.orderBy, request.direction, filters];
  return createHmac('sha256', ctx.sessionSecret)
    .update(JSON.stringify(['importd-cursor-v2', binding, at.value, 'id' in at ? at.id : null]))
    .digest('base64url')
    .slice(0, 22);
}

function invalidCursor() {
  return validationFailed([
    { path: 'cursor', message: 'is not a cursor of this list: it does not decode, or was made for another sort or filters' },
  ]);
}

/**
 * How many of `rows` a page takes: `limit`, or fewer once the rows before one hold `maxBytes` (by `size`),
 * always at least one. Large items make shorter pages, whose nextCursor continues after their last item.
 */
export function rowsWithinBytes<R>(rows: readonly R[], limit: number, maxBytes: number, size: (row: R) => number): number {
  let bytes = 0;
  for (let i = 0; i < Math.min(rows.length, limit); i++) {
    if (i > 0 && bytes >= maxBytes) return i;
    bytes += size(rows[i]!);
  }
  return limit;
}
