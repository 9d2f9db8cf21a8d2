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

/**
 * Runs the steps in slices of about `sliceMs` of work each, yielding to the event loop between slices:
 * other requests are served while a large mapping is computed (DESIGN.md "Limits": no request holds the
 * event loop for more than ~50 ms).
 */
export async function runInSlices<T>(steps: Steps<T>, sliceMs = 10): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}
