import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maxWeightAssignment } from '../../src/services/mapping/assignment';

function total(w: number[], cols: number, picks: Int32Array): number {
  let sum = 0;
  picks.forEach((c, r) => {
    if (c >= 0) sum += w[r * cols + c]!;
  });
  return sum;
}

function bruteForce(w: number[], rows: number, cols: number): number {
  let best = 0;
  const walk = (r: number, used: Set<number>, acc: number) => {
    if (r === rows) return void (best = Math.max(best, acc));
    walk(r + 1, used, acc);
    for (let c = 0; c < cols; c++)
      if (!used.has(c)) {
        used.add(c);
        walk(r + 1, used, acc + w[r * cols + c]!);
        used.delete(c);
      }
  };
  walk(0, new Set(), 0);
  return best;
}

describe('maxWeightAssignment', () => {
  it('beats greedy: the best single pair is not part of the best assignment', () => {
    // Greedy takes (0,0)=0.9 and leaves row 1 with nothing; optimal is (0,1)+(1,0)=1.65.
    const picks = maxWeightAssignment(new Float64Array([0.9, 0.8, 0.85, 0]), 2, 2);
    assert.deepEqual([...picks], [1, 0]);
  });

  it('handles more rows than columns and empty sides', () => {
    const picks = maxWeightAssignment(new Float64Array([0.2, 0.9, 0.8, 0.1, 0.3, 0.3]), 3, 2);
    assert.deepEqual([...picks].filter((c) => c >= 0).sort(), [0, 1]);
    assert.deepEqual([...maxWeightAssignment(new Float64Array(0), 0, 3)], []);
    assert.deepEqual([...maxWeightAssignment(new Float64Array(0), 2, 0)], [-1, -1]);
  });

  it('matches brute force on random rectangular matrices, one column per row', () => {
    let seed = 42;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let t = 0; t < 200; t++) {
      const rows = 1 + Math.floor(rand() * 5);
      const cols = 1 + Math.floor(rand() * 5);
      const w = Array.from({ length: rows * cols }, () => (rand() < 0.3 ? 0 : rand()));
      const picks = maxWeightAssignment(new Float64Array(w), rows, cols);
      const used = [...picks].filter((c) => c >= 0);
      assert.equal(new Set(used).size, used.length);
      assert.ok(Math.abs(total(w, cols, picks) - bruteForce(w, rows, cols)) < 1e-9);
    }
  });
});
