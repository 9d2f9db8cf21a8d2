import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import type { DatasetChanges, ImportRow, WebhookEventDraft } from '../../db/store';
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

/** `import.completed`: the import in its create shape plus its environment's name, for that environment's endpoints. */
export async function importCompletedEvent(ctx: ServiceContext, row: ImportRow): Promise<WebhookEventDraft | undefined> {
  return (await importCompletedEventFor(ctx, row))?.(null);
}

/**
 * importCompletedEvent built once the store knows what applying the import to its dataset changed (the
 * event then carries `changes`); undefined for an import of no environment.
 */
export async function importCompletedEventFor(ctx: ServiceContext, row: ImportRow): Promise<((changes: DatasetChanges | null) => WebhookEventDraft) | undefined> {
  if (row.environmentId === null) return undefined;
  const environment = await ctx.store.environments.findById(row.environmentId);
  return (changes) =>
    draft(ctx, 'import.completed', aboutImport(row), { ...toListItem(changes ? { ...row, changes: JSON.stringify(changes) } : row), environment: environment?.name ?? null });
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
