import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectDateFormat } from '../../src/embed/date-format';
import { Rows } from '../../src/embed/rows';
import { countValues, mostFrequent, rewriteValues, suggestValues } from '../../src/embed/value-mapping';

const options = [{ value: 'active', label: 'Active', alternatives: ['enabled'] }, { value: 'paused' }];
const statuses = ['Enabled', ' on hold ', 'active', 'x', ''];
const pad = (value: number) => String(value).padStart(2, '0');
/** Enough rows that the sliced passes yield (12 ms slices): the seams between slices are crossed. */
const ROWS = 200_000;

/** Row i of the file (dates in DD/MM/YYYY; a day after the 12th decides), and as the values step sends it. */
function fileRow(index: number): string[] {
  const due = index % 1000 === 7 ? 'soon' : `${pad((index % 28) + 1)}/${pad((index % 12) + 1)}/2025`;
  return [`n${index}`, statuses[index % statuses.length]!, due];
}
function expectedRow(index: number): string[] {
  const due = index % 1000 === 7 ? 'soon' : `2025-${pad((index % 12) + 1)}-${pad((index % 28) + 1)}`;
  return [`n${index}`, ['active', 'paused', 'active', 'x', ''][index % statuses.length]!, due];
}

describe('the values step in slices', () => {
  const table = [['Name', 'Status', 'Due'], ...Array.from({ length: ROWS }, (_, index) => fileRow(index))];
  it('counts the enum and date columns of every row after the header', async () => {
    const [status, due] = await countValues(Rows.of(table), [1, 2]);
    assert.deepEqual(mostFrequent(status!), [{ value: 'Enabled', rows: ROWS / 5 }, { value: 'active', rows: ROWS / 5 }, { value: 'on hold', rows: ROWS / 5 }, { value: 'x', rows: ROWS / 5 }]);
    assert.deepEqual(suggestValues(mostFrequent(status!), options, { 'on hold': 'paused' }).map((choice) => choice.option), ['active', 'active', 'paused', '']);
    assert.equal(due!.get('soon'), ROWS / 1000);
    assert.equal(detectDateFormat([...due!.keys()], ['DD/MM/YYYY', 'MM/DD/YYYY'], false).format, 'DD/MM/YYYY');
  });
  it('rewrites every row, as a copy', () => {
    const chosen = new Map([['Enabled', 'active'], ['active', 'active'], ['on hold', 'paused']]);
    const rewritten = rewriteValues(Rows.of(table), [{ column: 1, chosen }], [{ column: 2, format: 'DD/MM/YYYY', withTime: false }]);
    assert.equal(rewritten.length, ROWS + 1);
    assert.deepEqual(rewritten.row(0), ['Name', 'Status', 'Due']);
    for (let index = 0; index < ROWS; index++) {
      if (rewritten.row(index + 1).join('|') !== expectedRow(index).join('|')) assert.deepEqual(rewritten.row(index + 1), expectedRow(index), `row ${index}`);
    }
    assert.deepEqual(table[2], fileRow(1), 'the file as read is kept for Back');
  });
});
