import type { ImportViewRow, ReviewDecision, WebhookEventDraft } from '../../db/store';
import type { ServiceContext } from '../context';
import { importCompletedEvent, importReviewedEvent } from '../webhooks/events';

/**
 * Applies an approved import: it counts from now on, as an import that needs no review does once written,
 * and `import.completed` goes out with `import.approved`. ONE store call, so the decision, what applying does
 * and the events commit together, and of two concurrent approvals exactly one applies (undefined for the
 * other: nothing changed). This is the step where an import of a keyed template is applied to its dataset
 * (recomputing its changes against the dataset as it is now); a template without a key has no dataset.
 */
export async function applyApprovedImport(ctx: ServiceContext, approved: ImportViewRow, decision: ReviewDecision): Promise<ImportViewRow | undefined> {
  const events = [await importCompletedEvent(ctx, approved), await importReviewedEvent(ctx, approved)].filter((event): event is WebhookEventDraft => event !== undefined);
  return await ctx.store.imports.review(approved.accountId, approved.id, decision, events);
}
