import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import type { DatasetChanges, ImportRow, ImportViewRow, WebhookEventDraft } from '../../db/store';
import type { ServiceContext } from '../context';
import { toListItem } from '../imports/views';
import type { WebhookEventType } from './schemas';

// The events importd emits, built by the verbs that make the change and handed to the store method that
// writes the change, so the event commits with it (the outbox) or not at all.

type About = Pick<WebhookEventDraft, 'accountId' | 'environmentId' | 'importId' | 'endUserId'>;

function draft(ctx: ServiceContext, type: WebhookEventType, about: About, data: unknown): WebhookEventDraft {
  const createdAt = isoTime(ctx.clock);
  return { id: `evt_${newId()}`, ...about, type, createdAt, payload: JSON.stringify({ type, timestamp: createdAt, data }) };
}

const aboutImport = (row: Pick<ImportRow, 'id' | 'accountId' | 'environmentId' | 'endUserId'>): About => ({
  accountId: row.accountId,
  environmentId: row.environmentId,
  importId: row.id,
  endUserId: row.endUserId,
});

/** Builds an event once the changes its import's application made are known (null: an unkeyed template's). */
type EventOfChanges = (changes: DatasetChanges | null) => WebhookEventDraft;

/**
 * An event about an import, for its environment's endpoints: the import in its create shape (with `changes`
 * when it was applied to a dataset) plus its environment's name, and `extra`; undefined for an import of no
 * environment.
 */
async function importEventFor(ctx: ServiceContext, type: WebhookEventType, row: ImportViewRow, extra: object = {}): Promise<EventOfChanges | undefined> {
  if (row.environmentId === null) return undefined;
  const environment = await ctx.store.environments.findById(row.environmentId);
  return (changes) =>
    draft(ctx, type, aboutImport(row), { ...toListItem(changes ? { ...row, changes: JSON.stringify(changes) } : row), environment: environment?.name ?? null, ...extra });
}

/** `import.completed`: the import counts (written, or approved by a reviewer). */
export async function importCompletedEventFor(ctx: ServiceContext, row: ImportViewRow): Promise<EventOfChanges | undefined> {
  return importEventFor(ctx, 'import.completed', row);
}

/** `import.approved` or `import.rejected`: a reviewer's decision, with its time and reason. */
export async function importReviewedEventFor(ctx: ServiceContext, row: ImportViewRow): Promise<EventOfChanges | undefined> {
  const type = row.reviewStatus === 'rejected' ? 'import.rejected' : 'import.approved';
  return importEventFor(ctx, type, row, { reviewedAt: row.reviewedAt, reason: row.reviewReason });
}

/** `import.deleted`, for the endpoints of the import's environment. */
export function importDeletedEvent(ctx: ServiceContext, row: Pick<ImportRow, 'id' | 'accountId' | 'environmentId' | 'endUserId'>): WebhookEventDraft | undefined {
  if (row.environmentId === null) return undefined;
  return draft(ctx, 'import.deleted', aboutImport(row), { id: row.id });
}

/**
 * `end_user.deleted`, for the endpoints of EVERY environment of the account: the deletion itself is
 * account-wide (imports and sessions of every environment), so each environment's backend must hear of it.
 */
export function endUserDeletedEvent(ctx: ServiceContext, accountId: string, endUserId: string): WebhookEventDraft {
  return draft(ctx, 'end_user.deleted', { accountId, environmentId: null, importId: null, endUserId }, { endUserId });
}
