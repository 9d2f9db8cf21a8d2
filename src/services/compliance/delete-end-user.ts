import type { ServiceContext } from '../context';
import { parseInput } from '../validate';
import { EndUserId, type DeletedEndUser } from './schemas';

/**
 * Compliance deletion (GDPR/CCPA): removes every import of the end-user in the account (any status, with
 * all their rows) and every session issued for them, in one transaction: either all of it goes or none.
 * Other accounts and other end-users are untouched. Answers the counts removed; an end-user with nothing
 * stored answers zeros (the request is fulfilled). Throws validation_failed.
 */
export async function deleteEndUserData(ctx: ServiceContext, accountId: string, endUserId: string): Promise<DeletedEndUser> {
  const id = parseInput(EndUserId, endUserId);
  const { imports, rows, sessions } = await ctx.store.compliance.deleteEndUser(accountId, id);
  return { endUserId: id, deleted: { imports, rows, sessions } };
}
