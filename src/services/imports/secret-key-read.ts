import type { ImportDetailRow } from '../../db/store';
import { acceptKey, requireKeyKind, type AuthenticatedKey, type PresentedKeyHash } from '../auth';
import type { ServiceContext } from '../context';
import { notFound } from '../errors';

/**
 * A Secret Key (its presented hash) and one of its account's complete imports, read in one statement: what
 * authenticateKey, requireKeyKind(secret) and findAccountImportView do one after the other for the detail and
 * rows reads, in that order. Throws invalid_api_key, wrong_key_kind, not_found.
 */
export async function secretKeyImport(ctx: ServiceContext, presentedKey: PresentedKeyHash, importId: string): Promise<{ key: AuthenticatedKey; imported: ImportDetailRow }> {
  const found = await ctx.store.imports.findViewWithKey(presentedKey.hash, importId);
  const key = await acceptKey(ctx, presentedKey, found?.key);
  requireKeyKind(key, ['secret']);
  if (!found?.view) throw notFound('import');
  return { key, imported: found.view };
}
