import type { ChangeNotices } from '../../db/store';
import { SharedAcceptanceChecks } from './shared-checks';
import { ServiceError } from '../errors';
import type { Theme } from './schemas';

/**
 * How often the stored themes of watched accounts are re-read when change notices do not cross processes
 * (SQLite: a CLI command writing the same file), to see such changes.
 */
export const THEME_POLL_MS = 2_000;
/** Open theme streams allowed per key, and per process (each holds a socket). */
export const MAX_STREAMS_PER_KEY = 50;
export const MAX_STREAMS = 1_000;
/**
 * Open theme streams allowed per account, whatever keys they come through: an environment holds several
 * valid keys while rolled ones are in their grace period, and an account several environments.
 */
export const MAX_STREAMS_PER_ACCOUNT = 200;
/**
 * Process slots only an account's FIRST stream may take: accounts at their cap can fill the process only up to
 * MAX_STREAMS - RESERVED_FOR_FIRST_STREAMS, so another account's importers still get a stream.
 */
export const RESERVED_FOR_FIRST_STREAMS = 100;
/** Streams woken at once by a theme change before the event loop gets a turn (setImmediate between slices). */
const WAKE_SLICE = 50;
/**
 * Re-reads of one account's theme on notices are at least this far apart (later notices are folded into one
 * re-read at the end of the gap): an account changing its theme in a loop wakes its streams 4 times a second
 * at most, each stream getting the latest theme, instead of once per change.
 */
export const NOTICE_GAP_MS = 250;
/**
 * Open streams allowed per Public Key and client address: the key is public and an Origin is forged at will
 * outside a browser, so without it one client could take every stream of the key from its end-users. A page
 * needs one; a few allow for tabs and reconnections.
 */
export const MAX_STREAMS_PER_CLIENT = 4;

type Wake = 'changed' | 'closed';

/** One open stream's view of its account's theme. */
export interface ThemeSubscription {
  /** The latest theme not yet taken, if any (undefined when the account has none or it is unchanged). */
  take(): Theme | undefined;
  /** Resolves when the theme changes, the hub closes, or after `ms` ('timeout'). */
  wait(ms: number): Promise<Wake | 'timeout'>;
  close(): void;
}

interface Subscriber {
  pending: Theme | undefined;
  wake: ((reason: Wake) => void) | undefined;
  closed: boolean;
}

/**
 * The theme-change fan-out of one node: every open GET /v1/themes/events stream of an account is told when its
 * theme changes. The verbs that write a theme publish a change notice (`themeChanged`), which reaches every
 * node on the database (store.notices); each node re-reads the theme once and wakes its streams. Where notices
 * do not cross processes, one shared poller (one query per watched account every THEME_POLL_MS) also runs;
 * where a notice may have been missed (the notice channel reconnected), every watched account is re-read.
 * Both run only while streams are open.
 */
export class ThemeEvents {
  private readonly accounts = new Map<string, { seen: string; subscribers: Set<Subscriber>; refreshedAt: number; folded?: NodeJS.Timeout }>();
  // Open streams per key id and per Public Key client bucket (the two never collide: a bucket holds a space).
  private readonly perKey = new Map<string, number>();
  private total = 0;
  private timer: NodeJS.Timeout | undefined;
  private listening: Promise<() => void> | undefined;
  private closing = false;
  /** The key checks of woken streams, shared by those of one key and origin. */
  readonly checks = new SharedAcceptanceChecks();

  constructor(
    private readonly read: (accountId: string) => Promise<Theme | undefined>,
    private readonly notices: ChangeNotices,
  ) {}

  /**
   * Opens a stream's subscription, primed with the current theme. `client`: the Public Key's client bucket, capped
   * at MAX_STREAMS_PER_CLIENT (none for a Secret Key). Throws rate_limited when too many are open.
   */
  async subscribe(accountId: string, keyId: string, client?: string): Promise<ThemeSubscription> {
    // Listening before the read: a change made after the read always arrives as a notice.
    await this.listen();
    // Read last: from here to the registration nothing awaits, so the limits below cannot be raced past.
    const current = await this.read(accountId);
    if (this.closing) throw new ServiceError('rate_limited', 'the server is shutting down; reconnect shortly', undefined, 5);
    if (client !== undefined && (this.perKey.get(client) ?? 0) >= MAX_STREAMS_PER_CLIENT) {
      throw new ServiceError('rate_limited', `too many open theme streams (at most ${MAX_STREAMS_PER_CLIENT} per Public Key and client address); close one and retry`, undefined, 30);
    }
    if ((this.perKey.get(keyId) ?? 0) >= MAX_STREAMS_PER_KEY) {
      throw new ServiceError('rate_limited', `too many open theme streams (at most ${MAX_STREAMS_PER_KEY} per key); close one and retry`, undefined, 30);
    }
    const opened = this.accounts.get(accountId)?.subscribers.size ?? 0;
    if (opened >= MAX_STREAMS_PER_ACCOUNT) {
      throw new ServiceError('rate_limited', `too many open theme streams (at most ${MAX_STREAMS_PER_ACCOUNT} per account); close one and retry`, undefined, 30);
    }
    if (this.total >= (opened === 0 ? MAX_STREAMS : MAX_STREAMS - RESERVED_FOR_FIRST_STREAMS)) {
      throw new ServiceError('rate_limited', 'too many open theme streams on this server; retry shortly', undefined, 30);
    }
    let account = this.accounts.get(accountId);
    if (!account) {
      account = { seen: JSON.stringify(current ?? null), subscribers: new Set(), refreshedAt: -Infinity };
      this.accounts.set(accountId, account);
    }
    const subscriber: Subscriber = { pending: current, wake: undefined, closed: false };
    account.subscribers.add(subscriber);
    const counted = client === undefined ? [keyId] : [keyId, client];
    for (const name of counted) this.perKey.set(name, (this.perKey.get(name) ?? 0) + 1);
    this.total += 1;
    this.startPolling();
    const watched = account;
    return {
      take: () => {
        const theme = subscriber.pending;
        subscriber.pending = undefined;
        return theme;
      },
      wait: (ms) => {
        if (subscriber.closed) return Promise.resolve('closed');
        if (subscriber.pending) return Promise.resolve('changed');
        return new Promise((resolve) => {
          const timer = setTimeout(() => finish('timeout'), ms);
          const finish = (reason: Wake | 'timeout') => {
            clearTimeout(timer);
            subscriber.wake = undefined;
            resolve(reason);
          };
          subscriber.wake = finish;
        });
      },
      close: () => {
        if (!watched.subscribers.delete(subscriber)) return;
        subscriber.closed = true;
        subscriber.wake?.('closed');
        this.total -= 1;
        for (const name of counted) {
          const left = (this.perKey.get(name) ?? 1) - 1;
          if (left === 0) this.perKey.delete(name);
          else this.perKey.set(name, left);
        }
        if (watched.subscribers.size === 0) {
          clearTimeout(watched.folded);
          this.accounts.delete(accountId);
        }
        if (this.total === 0) this.stopPolling();
      },
    };
  }

  /** A change notice for the account: a re-read now, or one at the end of NOTICE_GAP_MS after the last. */
  private noticed(accountId: string): void {
    const account = this.accounts.get(accountId);
    if (!account || account.folded) return;
    const wait = account.refreshedAt + NOTICE_GAP_MS - Date.now();
    if (wait <= 0) {
      this.refresh(accountId).catch(() => undefined);
      return;
    }
    account.folded = setTimeout(() => {
      account.folded = undefined;
      this.refresh(accountId).catch(() => undefined);
    }, wait);
    account.folded.unref();
  }

  /** Re-reads the account's theme and wakes its open streams when it differs from what they last got. */
  private async refresh(accountId: string): Promise<void> {
    const watched = this.accounts.get(accountId);
    if (!watched) return;
    watched.refreshedAt = Date.now();
    const theme = await this.read(accountId);
    const account = this.accounts.get(accountId);
    if (!account) return;
    const seen = JSON.stringify(theme ?? null);
    if (seen === account.seen || !theme) return;
    account.seen = seen;
    // In slices, the event loop served between them: each woken stream re-checks its key and writes the theme,
    // and hundreds of them in one turn held every other request back.
    let woken = 0;
    for (const subscriber of [...account.subscribers]) {
      subscriber.pending = theme;
      subscriber.wake?.('changed');
      if (++woken % WAKE_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Ends every open stream (server shutdown: a drain must not wait for streams that never end). */
  closeAll(): void {
    this.closing = true;
    void this.listening?.then((stop) => stop(), () => undefined);
    for (const account of this.accounts.values()) {
      for (const subscriber of account.subscribers) {
        subscriber.closed = true;
        subscriber.wake?.('closed');
      }
    }
  }

  /** How many streams are open (for tests and logs). */
  get openStreams(): number {
    return this.total;
  }

  private refreshAll(): void {
    // A failed read (the database busy or closing) is retried at the next notice or tick.
    for (const accountId of [...this.accounts.keys()]) this.refresh(accountId).catch(() => undefined);
  }

  /** Subscribes to theme notices once, at the first stream, for as long as the node runs (a failure is retried by the next stream). */
  private async listen(): Promise<void> {
    this.listening ??= this.notices.subscribe('theme', {
      notice: (accountId) => {
        this.noticed(accountId);
      },
      resync: () => this.refreshAll(),
    });
    try {
      await this.listening;
    } catch (error) {
      this.listening = undefined;
      throw error;
    }
  }

  private startPolling(): void {
    if (this.timer || this.notices.crossProcess) return;
    this.timer = setInterval(() => this.refreshAll(), THEME_POLL_MS);
    this.timer.unref();
  }

  private stopPolling(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
