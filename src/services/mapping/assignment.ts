/**
 * Optimal one-to-one assignment (Hungarian algorithm, shortest augmenting
 * path form with potentials), O(n^2 * m) for n <= m. Rectangular inputs are
 * handled by transposing so the smaller side is the row side. Written as steps
 * (one per augmented row) so a large matrix can be solved in slices.
 */
import { runAll, type Steps } from './steps';

/**
 * Assign rows to columns maximising the summed weight. `weights` is row-major
 * (rows x cols). Returns, per row, the chosen column or -1. Zero-weight pairs
 * may be returned; callers drop pairs they consider too weak.
 */
export function maxWeightAssignment(weights: Float64Array, rows: number, cols: number): Int32Array {
  return runAll(assignmentSteps(weights, rows, cols));
}

function* assignmentSteps(weights: Float64Array, rows: number, cols: number): Steps<Int32Array> {
  if (rows === 0 || cols === 0) return new Int32Array(rows).fill(-1);
  if (rows > cols) {
    const transposed = new Float64Array(rows * cols);
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) transposed[c * rows + r] = weights[r * cols + c]!;
    const byCol = yield* assignmentSteps(transposed, cols, rows);
    const out = new Int32Array(rows).fill(-1);
    byCol.forEach((r, c) => {
      if (r >= 0) out[r] = c;
    });
    return out;
  }
  const n = rows;
  const m = cols;
  // Minimise cost = -weight; arrays are 1-based with index 0 as the virtual start.
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const p = new Int32Array(m + 1);
  const way = new Int32Array(m + 1);
  const minv = new Float64Array(m + 1);
  const used = new Uint8Array(m + 1);
  for (let i = 1; i <= n; i++) {
    yield;
    p[0] = i;
    let j0 = 0;
    minv.fill(Infinity);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = p[j0]!;
      const rowBase = (i0 - 1) * m;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const cur = -weights[rowBase + j - 1]! - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[p[j]!]! += delta;
          v[j]! -= delta;
        } else {
          minv[j]! -= delta;
        }
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const out = new Int32Array(n).fill(-1);
  for (let j = 1; j <= m; j++) if (p[j]! > 0) out[p[j]! - 1] = j - 1;
  return out;
}

/**
 * One-to-one assignment from per-row candidate lists: the Hungarian algorithm
 * runs on each connected group of rows and columns linked by an
 * above-threshold candidate, so the cubic step only sees small matrices.
 * Returns, per row, the chosen column or -1.
 */
export function* assignByComponents(candidates: { col: number; score: number }[][], threshold: number): Steps<Int32Array> {
  const result = new Int32Array(candidates.length).fill(-1);
  const rowsOfCol = new Map<number, number[]>();
  candidates.forEach((list, i) => {
    for (const c of list) if (c.score >= threshold) (rowsOfCol.get(c.col) ?? rowsOfCol.set(c.col, []).get(c.col)!).push(i);
  });
  const seen = new Uint8Array(candidates.length);
  for (let start = 0; start < candidates.length; start++) {
    if (seen[start]) continue;
    const rows: number[] = [];
    const cols = new Map<number, number>();
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const r = stack.pop()!;
      rows.push(r);
      for (const c of candidates[r]!) {
        if (c.score < threshold || cols.has(c.col)) continue;
        cols.set(c.col, cols.size);
        for (const other of rowsOfCol.get(c.col)!) if (!seen[other]) (seen[other] = 1), stack.push(other);
      }
    }
    if (cols.size === 0) continue;
    rows.sort((x, y) => x - y);
    const colList = [...cols.keys()].sort((x, y) => x - y);
    colList.forEach((c, k) => cols.set(c, k));
    const weights = new Float64Array(rows.length * colList.length);
    rows.forEach((r, k) => {
      for (const c of candidates[r]!) if (c.score >= threshold) weights[k * colList.length + cols.get(c.col)!] = c.score;
    });
    const picks = yield* assignmentSteps(weights, rows.length, colList.length);
    rows.forEach((r, k) => {
      const c = picks[k]!;
      if (c >= 0 && weights[k * colList.length + c]! > 0) result[r] = colList[c]!;
    });
  }
  return result;
}
