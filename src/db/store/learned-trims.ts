/**
 * How a template over its cap of learned entries is trimmed, the same on both engines: the largest confirmers
 * lose their oldest entries first, levelled down together, until `excess` entries are gone. A confirmer is
 * trimmed only while it holds more than every untouched one, so an end-user who floods a template loses their
 * own entries and never pushes out those of others who taught fewer.
 *
 * Answers, for each confirmer to trim, how many of its most recent entries it keeps.
 */
export function learnedTrims(counts: { confirmer: string; entries: number }[], excess: number): { confirmer: string; keep: number }[] {
  // Largest first; ties by confirmer so the outcome does not depend on the engine's row order.
  const sorted = [...counts].sort((a, b) => b.entries - a.entries || (a.confirmer < b.confirmer ? -1 : 1));
  const keep = sorted.map((c) => c.entries);
  let left = excess;
  while (left > 0) {
    const top = keep[0]!;
    let level = 1;
    while (level < keep.length && keep[level] === top) level++;
    const next = level < keep.length ? keep[level]! : 0;
    const room = (top - next) * level;
    if (room <= left) {
      keep.fill(next, 0, level);
      left -= room;
    } else {
      // The last step spreads what is left over the `level` largest, one more from the first ones.
      const each = Math.floor(left / level);
      for (let i = 0; i < level; i++) keep[i] = top - each - (i < left % level ? 1 : 0);
      left = 0;
    }
  }
  return sorted.flatMap((c, i) => (keep[i]! < c.entries ? [{ confirmer: c.confirmer, keep: keep[i]! }] : []));
}
