/**
 * A second chance for pairs below the threshold: a schema header and a file header that are each other's
 * clear best (by a margin over every rival of both) are very likely the same column even when their
 * names share little, for instance across languages or with a rare synonym. The threshold is set for
 * pairs that must win against look-alikes; a pair with no look-alike on either side needs less.
 */

// How far below the threshold a mutual best pair may score: at the default threshold 0.5 the floor is 0.3,
// a little above what agreeing value kinds alone give (0.25).
export const MUTUAL_DROP = 0.2;
// How far the pair must stand above the next best candidate of its row and of its column.
export const MUTUAL_MARGIN = 0.15;

/** The two best scores seen for each row and each column of a score matrix, fed pair by pair. */
export class TopTwo {
  readonly rowBest: Float64Array;
  readonly rowSecond: Float64Array;
  readonly rowBestCol: Int32Array;
  readonly colBest: Float64Array;
  readonly colSecond: Float64Array;
  readonly colBestRow: Int32Array;

  constructor(rows: number, cols: number) {
    this.rowBest = new Float64Array(rows);
    this.rowSecond = new Float64Array(rows);
    this.rowBestCol = new Int32Array(rows).fill(-1);
    this.colBest = new Float64Array(cols);
    this.colSecond = new Float64Array(cols);
    this.colBestRow = new Int32Array(cols).fill(-1);
  }

  add(row: number, col: number, score: number): void {
    if (score > this.rowBest[row]!) {
      this.rowSecond[row] = this.rowBest[row]!;
      this.rowBest[row] = score;
      this.rowBestCol[row] = col;
    } else if (score > this.rowSecond[row]!) this.rowSecond[row] = score;
    if (score > this.colBest[col]!) {
      this.colSecond[col] = this.colBest[col]!;
      this.colBest[col] = score;
      this.colBestRow[col] = row;
    } else if (score > this.colSecond[col]!) this.colSecond[col] = score;
  }
}

/**
 * Rows left unassigned whose best column is free, has this row as its own best, and leads both the
 * row's and the column's runner-up by MUTUAL_MARGIN, with a score of at least `floor`.
 * Returns row -> { col, score }.
 */
export function mutualBestPairs(top: TopTwo, assigned: Int32Array, floor: number): Map<number, { col: number; score: number }> {
  const taken = new Set<number>();
  for (const c of assigned) if (c >= 0) taken.add(c);
  const out = new Map<number, { col: number; score: number }>();
  for (let row = 0; row < assigned.length; row++) {
    if (assigned[row]! >= 0) continue;
    const col = top.rowBestCol[row]!;
    const score = top.rowBest[row]!;
    if (col < 0 || taken.has(col) || top.colBestRow[col] !== row || score < floor) continue;
    if (score - top.rowSecond[row]! < MUTUAL_MARGIN || score - top.colSecond[col]! < MUTUAL_MARGIN) continue;
    out.set(row, { col, score });
  }
  return out;
}
