import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CellStatsCollector } from '../../src/services/imports/cell-stats';

const typeOf = (...cells: (string | number | boolean | null)[]) => {
  const collector = new CellStatsCollector();
  for (const cell of cells) collector.add('c', cell);
  return collector.result(cells.length).fieldBreakdown[0]!.type;
};

describe('cell statistics: the type of a column', () => {
  // Every pattern, at its edges: the inference skips patterns by first character, never changing a result.
  const cases: [string | number | boolean | null, string][] = [
    [42, 'number'], ['42', 'number'], [' -4.5e3 ', 'number'], ['+7', 'number'], ['.5', 'number'], ['5.', 'number'], ['1e', 'string'],
    [true, 'boolean'], ['TRUE', 'boolean'], [' false', 'boolean'], ['False', 'boolean'], ['truely', 'string'], ['f', 'string'],
    ['a@b.co', 'email'], ['  x.y@mail.example.org ', 'email'], ['@b.co', 'string'], ['a@b', 'string'], ['1@2.3', 'email'],
    ['2024-01-31', 'date'], ['2024-01-31T12:00:00Z', 'date'], ['31/01/2024', 'string'], ['1/31/2024', 'date'], ['2024-13-45', 'string'],
    ['Springfield', 'string'], ['-', 'string'], ['+', 'string'], ['.', 'string'], ['tea', 'string'], ['Zürich', 'string'],
    ['', 'empty'], ['   ', 'empty'], [null, 'empty'],
  ];
  for (const [cell, type] of cases) {
    it(`${JSON.stringify(cell)} is ${type}`, () => assert.equal(typeOf(cell), type));
  }

  it('reads a bare ISO day as Date.parse does, for every month and day', () => {
    for (const year of ['2024', '2023', '0000']) {
      for (let month = 0; month < 100; month++) {
        for (let day = 0; day < 100; day++) {
          const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          assert.equal(typeOf(text), Number.isNaN(Date.parse(text)) ? 'string' : 'date', text);
        }
      }
    }
  });

  it('disagreeing non-empty cells make it mixed; empty ones count in totalCells only', () => {
    assert.equal(typeOf('1', 'a'), 'mixed');
    assert.equal(typeOf('1', '', null, 2), 'number');
    const collector = new CellStatsCollector();
    for (const cell of ['1', '', null, ' 2 ']) collector.add('c', cell);
    assert.deepEqual(collector.result(4), { totalCells: 4, rowCount: 4, fieldBreakdown: [{ key: 'c', type: 'number', count: 2 }] });
  });
});
