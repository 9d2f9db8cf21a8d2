import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import type { DeletedImport } from './schemas';

/**
 * Deletes one import of the account and all its rows, in one transaction. An import of another account,
 * or one still being written, is not_found (never reveal that it exists). Throws not_found.
 */
export async function deleteImport(ctx: ServiceContext, accountId: string, importId: string): Promise<DeletedImport> {
  const deleted = await ctx.store.compliance.deleteImport(accountId, importId);
  if (!deleted) throw notFound('import');
  return { id: importId, deleted: true as const, rows: deleted.rows };
}
