/**
 * Long computations written as generators that yield between small steps, so the same code runs at once
 * (tests, bench) or in slices on the request thread, giving the event loop back between slices.
 */
import { performance } from 'node:perf_hooks';

export type Steps<T> = Generator<void, T, void>;

/** Runs every step at once. */
export function runAll<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Where work longer than one slice waits for its turn (MappingWorkLimiter). */
export interface SliceLimiter {
  run<R>(work: () => Promise<R>): Promise<R>;
}

/**
 * Runs the steps in slices of about `sliceMs` of work each, yielding to the event loop between slices:
 * other requests are served while a large mapping is computed (DESIGN.md "Limits": no request holds the
 * event loop for more than ~50 ms). Work done within its first slice never waits; longer work goes on
 * through `limiter`, which bounds how many such computations share the event loop, from the first slice
 * after which `queued` holds (by default the first).
 */
export async function runInSlices<T>(steps: Steps<T>, options: { sliceMs?: number; limiter?: SliceLimiter; queued?: () => boolean } = {}): Promise<T> {
  const { sliceMs = 10, limiter, queued = () => true } = options;
  let next = runSlice(steps, sliceMs);
  while (!next.done) {
    if (limiter && queued()) {
      return limiter.run(async () => {
        for (;;) {
          await new Promise((resolve) => setImmediate(resolve));
          const step = runSlice(steps, sliceMs);
          if (step.done) return step.value;
        }
      });
    }
    await new Promise((resolve) => setImmediate(resolve));
    next = runSlice(steps, sliceMs);
  }
  return next.value;
}

function runSlice<T>(steps: Steps<T>, sliceMs: number): IteratorResult<void, T> {
  const start = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done || performance.now() - start >= sliceMs) return next;
  }
}
