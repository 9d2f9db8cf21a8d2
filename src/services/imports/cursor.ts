import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServiceContext } from '../context';
import { validationFailed } from '../errors';

/** A keyset position: the last item's sort value and (for ties) its id. */
export interface CursorPosition {
  value: string | number;
  id?: string;
}

const invalidCursor = () =>
  validationFailed([
    { path: 'cursor', message: 'is not a cursor of this query: it does not decode, or was made for another sort or filters' },
  ]);

/**
 * Opaque cursors: base64url JSON of the position plus a MAC over the position and the query it belongs to
 * (`binding`: account, sort, filters). A cursor that was edited, or replayed against another query, fails
 * the MAC and is rejected, so a page can never be read under conditions it was not made for.
 */
export function encodeCursor(ctx: ServiceContext, binding: unknown, position: CursorPosition): string {
  const payload = { v: position.value, i: position.id, m: mac(ctx, binding, position) };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

/** Decodes a cursor made by encodeCursor for the same binding. Throws validation_failed (path `cursor`). */
export function decodeCursor(ctx: ServiceContext, binding: unknown, cursor: string): CursorPosition {
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (typeof payload !== 'object' || payload === null) throw invalidCursor();
  const { v, i, m } = payload as Record<string, unknown>;
  if ((typeof v !== 'string' && typeof v !== 'number') || (i !== undefined && typeof i !== 'string') || typeof m !== 'string') {
    throw invalidCursor();
  }
  const position: CursorPosition = { value: v, id: i };
  const expected = Buffer.from(mac(ctx, binding, position));
  const given = Buffer.from(m);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidCursor();
  return position;
}

function mac(ctx: ServiceContext, binding: unknown, position: CursorPosition): string {
  return createHmac('sha256', ctx.sessionSecret)
    .update(JSON.stringify(['importd-cursor-v1', binding, position.value, position.id ?? null]))
    .digest('base64url')
    .slice(0, 22);
}
