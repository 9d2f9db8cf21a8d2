import type { ServiceContext } from '../context';

/**
 * Deliveries one fan-out transaction makes at most for one event, and accounts it visits (one event each): the
 * sender makes an event's deliveries, never the request that wrote it, and each of its transactions stays
 * small however many endpoints an account has.
 */
export const FANOUT_BATCH = 64;
const FANOUT_ACCOUNTS = 4;
/** How soon a fan-out that found nothing waiting is tried again while a pass goes on (events of other processes). */
const FANOUT_IDLE_MS = 100;
/**
 * The fan-out side of a pass: each step makes the deliveries of the oldest waiting event of the next few
 * accounts, going round the accounts, so one account's backlog of events never holds back another's first
 * delivery. `idle` once a step found nothing waiting; then steps are skipped for FANOUT_IDLE_MS, unless poked
 * (the pass was woken).
 */
export class FanOut {
  private afterAccount: string | null = null;
  private lastIdleAt = -Infinity;
  idle = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly batch: number,
  ) {}

  /** Makes the next step look for waiting events even if the last found none moments ago. */
  poke(): void {
    this.idle = false;
  }

  async step(): Promise<void> {
    if (this.idle && Date.now() - this.lastIdleAt < FANOUT_IDLE_MS) return;
    const from = this.afterAccount;
    let { accounts } = await this.ctx.store.webhooks.fanOut(from, FANOUT_ACCOUNTS, this.batch);
    // Nothing after the last account visited: the round goes on from the first.
    if (accounts.length === 0 && from !== null) ({ accounts } = await this.ctx.store.webhooks.fanOut(null, FANOUT_ACCOUNTS, this.batch));
    this.afterAccount = accounts.length < FANOUT_ACCOUNTS ? null : accounts[accounts.length - 1]!;
    this.idle = accounts.length === 0;
    if (this.idle) this.lastIdleAt = Date.now();
  }
}
