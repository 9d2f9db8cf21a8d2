import { acceptKey, presentedKeyHash, requireKeyKind, type AuthenticatedKey } from '../auth';
import type { ServiceContext } from '../context';
import { readCursor, verifyCursor } from '../pagination';
import { parseInput } from '../validate';
import { importPage, importPageJson, listRequest } from './list-imports';
import { ListImportsQuery } from './schemas';

/**
 * A Secret Key and its account's imports newest first, unfiltered (GET /v1/imports with only `limit` and
 * `cursor`), read in one statement: what authenticateKey, requireKeyKind(secret) and listImportsJson do one
 * after the other, with the same answer. The cursor's position is read before the account is known and the
 * page is answered only once the cursor is verified for that account. Throws validation_failed,
 * invalid_api_key, wrong_key_kind.
 */
export async function secretKeyImportsJson(
  ctx: ServiceContext,
  presented: string,
  input: Pick<ListImportsQuery, 'limit' | 'cursor'>,
): Promise<{ key: AuthenticatedKey; text: string }> {
  const query = parseInput(ListImportsQuery, input);
  const cursor = query.cursor === undefined ? undefined : readCursor('string', query.cursor);
  const presentedKey = presentedKeyHash(presented);
  const found = await ctx.store.imports.pageWithKey(presentedKey.hash, cursor?.position, query.limit === 0 ? 0 : query.limit + 1);
  const key = await acceptKey(ctx, presentedKey, found?.key);
  requireKeyKind(key, ['secret']);
  const request = listRequest(key.accountId, query);
  if (cursor) verifyCursor(ctx, request, cursor);
  return { key, text: importPageJson(importPage(ctx, request, found!.rows, found!.total)) };
}
