import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import { removeHiddenImport } from '../imports/remove-import';
import { importDeletedEvent } from '../webhooks/events';
import type { DeletedImport } from './schemas';

/**
 * Deletes one import of the account and all its rows. It disappears from every read at once (hidden in one
 * small transaction); its rows then go in small transactions that let other requests run in between, so
 * an import of any size never holds the server. A process stopped midway leaves it hidden, and the next
 * start removes the rest. The webhook events about it are erased and an `import.deleted` is written in the
 * same transaction as the hiding. An import of another account, or one still being written, is not_found (never
 * reveal that it exists). Throws not_found.
 */
export async function deleteImport(ctx: ServiceContext, accountId: string, importId: string): Promise<DeletedImport> {
  const found = await ctx.store.imports.find(accountId, importId);
  const event = found && importDeletedEvent(ctx, found);
  if (!found || !(await ctx.store.compliance.hideComplete(accountId, importId, event))) throw notFound('import');
  if (event) ctx.webhookWake.notify();
  const rows = await removeHiddenImport(ctx, importId);
  return { id: importId, deleted: true as const, rows };
}
