import type { ServiceContext } from '../context';
import { removeHiddenImport } from '../imports/remove-import';
import { removeUploadFile } from '../uploads/upload-files';
import { forgetEndUserMappings } from '../mapping/learned-mappings';
import { endUserDeletedEvent } from '../webhooks/events';
import { parseInput } from '../validate';
import { EndUserId, type DeletedEndUser } from './schemas';

/**
 * Compliance deletion (GDPR/CCPA): removes every import of the end-user in the account (any status, with
 * all their rows) and every session issued for them. One small transaction revokes the sessions and hides
 * the imports from every read (an import still being written can no longer complete); the rows then go in
 * small transactions with other requests served in between, so the work never holds the server however
 * much the end-user stored. A process stopped midway leaves only hidden imports, removed at the next start.
 * The webhook events about the end-user are erased and an `end_user.deleted` (for every environment's
 * endpoints) is written in that same transaction. The header mappings the end-user confirmed are forgotten too. Other accounts and other end-users are untouched. Answers the counts removed; an end-user with nothing
 * stored answers zeros (the request is fulfilled). Throws validation_failed.
 */
export async function deleteEndUserData(ctx: ServiceContext, accountId: string, endUserId: string): Promise<DeletedEndUser> {
  const id = parseInput(EndUserId, endUserId);
  const { hidden, sessions } = await ctx.store.compliance.hideEndUser(accountId, id, endUserDeletedEvent(ctx, accountId, id));
  ctx.webhookWake.notify();
  await forgetEndUserMappings(ctx, accountId, id);
  let rows = 0;
  for (const importId of hidden) rows += await removeHiddenImport(ctx, importId);
  // Their files not (yet) made into an import go too; those of their imports went with each import.
  for (const upload of await ctx.store.uploads.ofEndUser(accountId, id)) {
    await removeUploadFile(ctx, upload);
    await ctx.store.uploads.delete(upload);
  }
  return { endUserId: id, deleted: { imports: hidden.length, rows, sessions } };
}
