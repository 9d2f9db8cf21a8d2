import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MUTUAL_MARGIN, mutualBestPairs } from '../../src/services/mapping/mutual-best';
import { runAll } from '../../src/services/mapping/steps';

/** Rows of scores -> row -> column of the mutual pass, with `assigned` from the assignment (-1: open). */
function pass(rows: number[][], assigned: number[], floor = 0.2): Record<number, number> {
  const cols = rows[0]!.length;
  const scores = Float64Array.from(rows.flat());
  const out = runAll(mutualBestPairs(scores, cols, Int32Array.from(assigned), floor));
  return Object.fromEntries([...out].map(([row, { col }]) => [row, col]));
}

describe('mutualBestPairs', () => {
  it('pairs an open row with the open column that is the clear best of both', () => {
    assert.deepEqual(pass([[0.25, 0.02], [0.01, 0]], [-1, -1]), { 0: 0 });
  });

  it('needs a score of at least the floor', () => {
    assert.deepEqual(pass([[0.25, 0]], [-1], 0.3), {});
  });

  it(`needs a lead of ${MUTUAL_MARGIN} over the runner-up of the row and of the column`, () => {
    assert.deepEqual(pass([[0.4, 0.22]], [-1]), {});
    assert.deepEqual(pass([[0.4], [0.22]], [-1, -1]), {});
    assert.deepEqual(pass([[0.4, 0.19], [0.19, 0]], [-1, -1]), { 0: 0 });
  });

  it('counts as rivals only the rows and columns the assignment left open', () => {
    // Row 1 took column 1: its 0.6 on column 0 and row 0's 0.9 on column 1 are no rivals.
    assert.deepEqual(pass([[0.35, 0.9], [0.6, 0.95]], [-1, 1]), { 0: 0 });
    // The same scores with row 1 left open: no clear best on either row.
    assert.deepEqual(pass([[0.35, 0.9], [0.6, 0.95]], [-1, -1]), {});
  });
});
