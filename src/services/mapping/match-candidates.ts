// Which pairs are scored, and which of the scored candidates the assignment may choose from.

import { conceptCount, relatedness } from './concepts';
import type { Prepared } from './prepared-headers';

// Above this many pairs, only pairs sharing a concept or token are scored.
const FULL_SCAN_PAIRS = 250_000;

/**
 * A header whose name reads the same as exactly one header of the other list (and no other header of its
 * own list reads so), with a score over the threshold, is that header: the pair is kept out of the trade-offs of the assignment, which
 * could otherwise give the column to a look-alike when that raises the sum ("Order total" would take
 * "Adjusted Order Total" so that "Net revenue" gets "Order Total").
 */
export function lockIdenticalNames(schema: Prepared[], file: Prepared[], candidates: { col: number; score: number }[][], threshold: number): void {
  const count = (side: Prepared[]) => {
    const n = new Map<string, number>();
    for (const p of side) {
      const t = p.variants[0]!.features.text;
      if (t) n.set(t, (n.get(t) ?? 0) + 1);
    }
    return n;
  };
  const inSchema = count(schema);
  const inFile = count(file);
  const colOf = new Map<string, number>();
  file.forEach((p, j) => colOf.set(p.variants[0]!.features.text, j));
  const locked = new Map<number, number>();
  schema.forEach((p, i) => {
    const t = p.variants[0]!.features.text;
    if (!t || inSchema.get(t) !== 1 || inFile.get(t) !== 1) return;
    // Samples that contradict the name (scored below the threshold) undo the lock.
    const col = colOf.get(t)!;
    if (candidates[i]!.some((c) => c.col === col && c.score >= threshold)) locked.set(i, col);
  });
  const lockedCols = new Set(locked.values());
  candidates.forEach((list, i) => {
    const col = locked.get(i);
    candidates[i] = col === undefined ? list.filter((c) => !lockedCols.has(c.col)) : list.filter((c) => c.col === col);
  });
}

/** Keys that make two headers worth scoring when the input is too large to score every pair. */
function blockingKeys(p: Prepared, expand: boolean): string[] {
  const keys = new Set<string>();
  for (const v of p.variants)
    for (const u of v.features.units) {
      if (u.concept < 0) {
        keys.add(`t:${u.token.slice(0, 4)}`); // prefix, so typos and abbreviations still meet
        continue;
      }
      keys.add(`c:${u.concept}`);
      if (expand) for (let o = 0; o < conceptCount; o++) if (relatedness.has(u.concept * conceptCount + o)) keys.add(`c:${o}`);
    }
  return [...keys];
}

export function candidateColumns(schema: Prepared[], file: Prepared[]): (row: number) => Iterable<number> {
  const all = file.map((_, j) => j);
  if (schema.length * file.length <= FULL_SCAN_PAIRS) return () => all;
  const postings = new Map<string, number[]>();
  file.forEach((f, j) => {
    for (const k of blockingKeys(f, false)) (postings.get(k) ?? postings.set(k, []).get(k)!).push(j);
  });
  return (row) => {
    const cols = new Set<number>();
    for (const k of blockingKeys(schema[row]!, true)) for (const j of postings.get(k) ?? []) cols.add(j);
    return [...cols].sort((x, y) => x - y);
  };
}
