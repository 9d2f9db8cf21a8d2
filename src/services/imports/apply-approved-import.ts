import type { ImportViewRow, ReviewDecision } from '../../db/store';
import type { ServiceContext } from '../context';
import { datasetApply } from '../datasets/apply';
import { importCompletedEventFor, importReviewedEventFor } from '../webhooks/events';
import { importPolicy } from './validate-rows';

/**
 * Applies an approved import: it counts from now on, as an import that needs no review does once written,
 * and `import.completed` goes out with `import.approved`. ONE store call, so the decision, what applying does
 * and the events commit together, and of two concurrent approvals exactly one applies (undefined for the
 * other: nothing changed). An import of a keyed template is applied to its dataset here, its changes
 * computed against the dataset as it is now (another import may have been applied since it was written).
 */
export async function applyApprovedImport(ctx: ServiceContext, approved: ImportViewRow, decision: ReviewDecision): Promise<ImportViewRow | undefined> {
  const completed = await importCompletedEventFor(ctx, approved);
  const reviewed = await importReviewedEventFor(ctx, approved);
  const primaryKey = (await importPolicy(ctx, approved.accountId, approved.templateId)).rules?.rules.primaryKey ?? [];
  const apply = primaryKey.length > 0 && approved.mode ? datasetApply(approved, { primaryKey, mode: approved.mode }, decision.at) : undefined;
  const events = (changes: Parameters<NonNullable<typeof completed>>[0]) => [completed?.(changes), reviewed?.(changes)].filter((event) => event !== undefined);
  return await ctx.store.imports.review(approved.accountId, approved.id, decision, events, apply);
}
