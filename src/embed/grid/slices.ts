/** Work done between two yields to the page: a pass over a million rows never blocks it for long. */
const SLICE_MS = 12;

/**
 * Runs `step` on 0 .. count - 1 in order, yielding to the page (a timer) whenever SLICE_MS have passed.
 * Answers false, leaving the rest undone, when `current` says after a yield that a newer pass has started.
 */
export async function inSlices(count: number, step: (index: number) => unknown, current: () => boolean = () => true, onProgress?: (fraction: number) => void): Promise<boolean> {
  let started = performance.now();
  for (let index = 0; index < count; index++) {
    step(index);
    if ((index & 255) === 255 && performance.now() - started > SLICE_MS) {
      onProgress?.(index / count);
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (!current()) return false;
      started = performance.now();
    }
  }
  return true;
}
