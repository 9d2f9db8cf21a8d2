import { acceptKey, requireKeyKind, type AuthenticatedKey, type PresentedKeyHash } from '../auth';
import type { ServiceContext } from '../context';
import { paginationOf, readCursor, verifyCursor } from '../pagination';
import { parseInput } from '../validate';
import { importPage, importPageJson, LIST_PAGE_BYTES, listRequest } from './list-imports';
import { ListImportsQuery } from './schemas';
import { jsonPageBytes, type JsonBody } from './views';

/**
 * A Secret Key (its presented hash) and its account's imports newest first, unfiltered (GET /v1/imports with
 * only `limit` and `cursor`), read in one statement: what authenticateKey, requireKeyKind(secret) and
 * listImportsJson do one after the other, with the same answer. The cursor's position is read before the account is known and the
 * page is answered only once the cursor is verified for that account. Throws validation_failed,
 * invalid_api_key, wrong_key_kind.
 */
export async function secretKeyImportsJson(
  ctx: ServiceContext,
  presentedKey: PresentedKeyHash,
  input: Pick<ListImportsQuery, 'limit' | 'cursor'>,
): Promise<{ key: AuthenticatedKey; text: JsonBody }> {
  const query = parseInput(ListImportsQuery, input);
  const cursor = query.cursor === undefined ? undefined : readCursor('string', query.cursor);
  const found = await ctx.store.imports.pageWithKey(presentedKey.hash, cursor?.position, query.limit, LIST_PAGE_BYTES);
  const key = await acceptKey(ctx, presentedKey, found?.key);
  requireKeyKind(key, ['secret']);
  const request = listRequest(key.accountId, query);
  if (cursor) verifyCursor(ctx, request, cursor);
  // acceptKey refused a hash without a key.
  const page = found!;
  if ('rows' in page) return { key, text: importPageJson(importPage(ctx, request, page.rows, page.total)) };
  // A page the store rendered holds every import within the byte budget (ImportStore.pageWithKey): not cut short.
  const { rendered, total } = page;
  return { key, text: jsonPageBytes(rendered.json, paginationOf(ctx, request, rendered.count, rendered.hasMore ? rendered.last : undefined, total)) };
}
