/**
 * A second chance for pairs below the threshold: a schema header and a file header that are each other's
 * clear best (by a margin over every rival of both) are very likely the same column even when their
 * names share little, for instance across languages or with a rare synonym. The threshold is set for
 * pairs that must win against look-alikes; a pair with no look-alike on either side needs less.
 *
 * Rivals are only the headers still open after the assignment: a schema header that already took a better
 * column, or a column already taken, cannot be the other header of this pair ("Weight" paired with
 * "Weight" no longer hides "Gewicht der Sendung" from "Shipment weight").
 */
import type { Steps } from './steps';

// How far below the threshold a mutual best pair may score: at the default threshold 0.5 the floor is 0.2.
// The margin decides: agreeing value kinds alone (0.25) pair two headers only when no other open pair of
// either scores more than 0.05.
export const MUTUAL_DROP = 0.3;
// How far the pair must stand above the next best open candidate of its row and of its column.
export const MUTUAL_MARGIN = 0.2;

/**
 * Rows left unassigned whose best open column (one no row was assigned) has this row as its best open row,
 * leads both the row's and the column's open runner-up by MUTUAL_MARGIN, and scores at least `floor`.
 * `scores` is row-major (rows x `cols`), 0 for pairs not scored. One step per open row.
 * Returns row -> { col, score }.
 */
export function* mutualBestPairs(scores: Float64Array, cols: number, assigned: Int32Array, floor: number): Steps<Map<number, { col: number; score: number }>> {
  const taken = new Uint8Array(cols);
  for (const c of assigned) if (c >= 0) taken[c] = 1;
  const out = new Map<number, { col: number; score: number }>();
  for (let row = 0; row < assigned.length; row++) {
    if (assigned[row]! >= 0) continue;
    yield;
    const base = row * cols;
    let col = -1;
    let score = 0;
    let second = 0;
    for (let c = 0; c < cols; c++) {
      if (taken[c]) continue;
      const s = scores[base + c]!;
      if (s > score) {
        second = score;
        score = s;
        col = c;
      } else if (s > second) second = s;
    }
    if (col < 0 || score < floor || score - second < MUTUAL_MARGIN) continue;
    let rival = 0;
    for (let r = 0; r < assigned.length; r++) if (r !== row && assigned[r]! < 0) rival = Math.max(rival, scores[r * cols + col]!);
    if (score - rival >= MUTUAL_MARGIN) out.set(row, { col, score });
  }
  return out;
}
