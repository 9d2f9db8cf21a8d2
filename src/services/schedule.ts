/** A job run now and then on an interval, stoppable. */
export interface Schedule {
  /** Cancels the schedule, interrupts a running job (its signal aborts) and resolves once it has returned. */
  stop(): Promise<void>;
}

/**
 * Runs `job` now and then every `intervalMs`, never two at once (a run still going when the next is due is
 * not doubled). The timer is unref'd: it never keeps the process alive. Call `stop()` before closing the store.
 */
export function schedule<T>(
  job: (signal: AbortSignal) => Promise<T>,
  report: { done(result: T): void; failed(error: unknown): void },
  intervalMs: number,
): Schedule {
  const abort = new AbortController();
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= job(abort.signal)
      .then((result) => report.done(result), (error: unknown) => report.failed(error))
      .finally(() => {
        running = undefined;
      });
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      abort.abort();
      await running;
    },
  };
}
