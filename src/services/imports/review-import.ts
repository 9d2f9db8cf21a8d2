import { isoTime } from '../../core/clock';
import type { ImportViewRow, ReviewDecision } from '../../db/store';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { importReviewedEventFor } from '../webhooks/events';
import { parseInput } from '../validate';
import { applyApprovedImport } from './apply-approved-import';
import { findAccountImportView } from './get-import';
import { ReviewImportInput } from './schemas';

/**
 * Approves an import of the account that awaits review (docs/templates.md "Review"): it becomes `completed`
 * and is applied (applyApprovedImport), `import.completed` and `import.approved` are sent. Answers the import
 * as it is afterwards. Throws not_found (none in the account), import_not_pending (completed or rejected,
 * also when another approval or rejection won meanwhile), validation_failed (the reason).
 */
export async function approveImport(ctx: ServiceContext, accountId: string, importId: string, input: ReviewImportInput = {}): Promise<ImportViewRow> {
  return await decide(ctx, accountId, importId, 'completed', input, (approved, decision) => applyApprovedImport(ctx, approved, decision));
}

/**
 * Rejects an import of the account that awaits review: it becomes `rejected` (it never counts; its rows stay
 * readable until it is deleted) and `import.rejected` is sent with the reason. Answers the import as it is
 * afterwards. Throws as approveImport.
 */
export async function rejectImport(ctx: ServiceContext, accountId: string, importId: string, input: ReviewImportInput = {}): Promise<ImportViewRow> {
  return await decide(ctx, accountId, importId, 'rejected', input, async (rejected, decision) => {
    const event = await importReviewedEventFor(ctx, rejected);
    return await ctx.store.imports.review(accountId, importId, decision, (changes) => (event ? [event(changes)] : []));
  });
}

type RecordDecision = (decided: ImportViewRow, decision: ReviewDecision) => Promise<ImportViewRow | undefined>;

/** Checks the import is pending, then has `record` make the decision in one store call; its loser of a race learns why. */
async function decide(ctx: ServiceContext, accountId: string, importId: string, status: ReviewDecision['status'], input: ReviewImportInput, record: RecordDecision): Promise<ImportViewRow> {
  const { reason } = parseInput(ReviewImportInput, input);
  const pending = await findAccountImportView(ctx, accountId, importId);
  if (pending.reviewStatus !== 'pending_review') throw notPending(pending);
  const decision: ReviewDecision = { status, at: isoTime(ctx.clock), reason: reason ?? null };
  // The import as the decision leaves it: what its events carry.
  const decided: ImportViewRow = { ...pending, reviewStatus: status, reviewedAt: decision.at, reviewReason: decision.reason, updatedAt: decision.at };
  const reviewed = await record(decided, decision);
  // Decided (or deleted) meanwhile by another request: this one changed nothing.
  if (!reviewed) throw notPending(await findAccountImportView(ctx, accountId, importId));
  ctx.webhookWake.notify();
  return reviewed;
}

function notPending(row: ImportViewRow): ServiceError {
  return new ServiceError('import_not_pending', `the import is ${row.reviewStatus}${row.reviewedAt ? ` (decided at ${row.reviewedAt})` : ''}: only an import pending review can be approved or rejected`);
}
