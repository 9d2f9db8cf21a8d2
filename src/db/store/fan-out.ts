// The fan-out loop both engines run inside one transaction (WebhookStore.fanOut), around their own statements.

/** An event awaiting fan-out, as the engines read it. */
export interface FanoutEvent {
  id: string;
  environmentId: string | null;
  type: string;
  createdAt: string;
  /** The last endpoint (in id order) a delivery was made for; null: none yet. */
  fanoutAfter: string | null;
}

/** Events of one account one fan-out visits at most: its cost stays bounded with many events of no subscriber left. */
const EVENTS_PER_ACCOUNT = 16;

/**
 * Fans out one account's oldest waiting events in turn until `batch` deliveries are made: `next(budget)` makes up
 * to `budget` deliveries of the oldest waiting event and answers how many endpoints it found (undefined: none
 * waiting). An event that used the whole budget may have endpoints left: it waits for the next turn.
 */
export function fanOutAccount(batch: number, next: (budget: number) => number | undefined): void {
  let budget = batch;
  for (let events = 0; budget > 0 && events < EVENTS_PER_ACCOUNT; events += 1) {
    const found = next(budget);
    if (found === undefined) return;
    budget -= found;
  }
}

/** The same, for statements that answer promises (PostgreSQL). */
export async function fanOutAccountAsync(batch: number, next: (budget: number) => Promise<number | undefined>): Promise<void> {
  let budget = batch;
  for (let events = 0; budget > 0 && events < EVENTS_PER_ACCOUNT; events += 1) {
    const found = await next(budget);
    if (found === undefined) return;
    budget -= found;
  }
}

/** Where an event's fan-out resumes: null (done) when fewer endpoints than the budget were found, else the last one. */
export function fanoutLast(endpoints: { id: string }[], budget: number): string | null {
  return endpoints.length < budget ? null : endpoints[endpoints.length - 1]!.id;
}
