import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { packSlice, Rows } from '../../src/embed/rows';

describe('packed rows', () => {
  const file = [['Name', 'City', 'Note'], ['Zoë', 'Köln', ''], ['', '', 'a,"b"\nc'], ['李', '🙂', 'x'], ['last', '', '']];
  // Two rows a slice, as the reader worker posts them: the last slice holds one.
  const rows = Rows.packed([packSlice(file.slice(0, 2), 3), packSlice(file.slice(2, 4), 3), packSlice(file.slice(4), 3)], 3);

  it('reads every cell back as written, across slices', () => {
    assert.equal(rows.length, 5);
    assert.deepEqual(rows.head(10), file);
    assert.equal(rows.cell(3, 1), '🙂');
    assert.equal(rows.cell(1, 7), '', 'a column past the width reads empty');
  });

  it('keeps edits beside the cells, shared by a view below the header row', () => {
    const table = Rows.packed([packSlice(file, 3)], 3);
    const data = table.from(1);
    data.set(0, 1, 'Berlin');
    assert.equal(data.length, 4);
    assert.deepEqual(data.row(0), ['Zoë', 'Berlin', '']);
    assert.deepEqual(table.row(1), ['Zoë', 'Berlin', '']);
    assert.deepEqual(table.row(0), ['Name', 'City', 'Note']);
  });

  it('replaces a text in a column below the header row, edits made before included', () => {
    const table = Rows.of([['Person name', 'Note'], ['Person 1', 'Person'], ['Person 2', ''], ['Ada', '']]);
    const data = table.from(1);
    data.set(2, 0, 'Person 3');
    data.replaceAll(0, 'Person', '$&-Client');
    data.set(1, 0, 'Person 2');
    assert.deepEqual(table.head(4), [['Person name', 'Note'], ['$&-Client 1', 'Person'], ['Person 2', ''], ['$&-Client 3', '']]);
    data.replaceAll(0, ' ', '_');
    assert.deepEqual(data.head(3).map((row) => row[0]), ['$&-Client_1', 'Person_2', '$&-Client_3']);
  });

  it('holds an empty sheet', () => {
    const empty = Rows.packed([], 0);
    assert.equal(empty.length, 0);
    assert.deepEqual(empty.head(5), []);
  });
});
