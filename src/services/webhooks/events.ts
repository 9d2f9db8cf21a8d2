import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import type { ImportRow, WebhookEventDraft } from '../../db/store';
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
  if (row.environmentId === null) return undefined;
  const environment = await ctx.store.environments.findById(row.environmentId);
  return draft(ctx, 'import.completed', aboutImport(row), { ...toListItem(row), environment: environment?.name ?? null });
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

/**
 * Wakes this process's sender when an event was written here, so a delivery starts at once instead of at
 * the next poll. A notice with no sender waiting is kept for its next wait.
 */
export class WebhookWake {
  private waiter: (() => void) | undefined;
  private pending = false;
  private scheduled = false;

  /**
   * Wakes the sender once this turn of the event loop is over, not at once: woken at once, its claim (two
   * statements) and the start of its attempt (a signature, a connection) ran before the request that wrote
   * the event had sent its answer.
   */
  notify(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.waiter) this.waiter();
      else this.pending = true;
    });
  }

  /**
   * Resolves at the next notice, after `ms`, or when `withdrawn` aborts (the waiter stopped listening: a notice
   * after that is kept for the next wait, not spent on a wait nobody awaits).
   */
  wait(ms: number, withdrawn?: AbortSignal): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        withdrawn?.removeEventListener('abort', done);
        if (this.waiter === done) this.waiter = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiter = done;
      withdrawn?.addEventListener('abort', done);
    });
  }
}
