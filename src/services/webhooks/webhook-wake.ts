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
