import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReviewModel } from '../../src/embed/grid/review-model';
import { Rows } from '../../src/embed/rows';
import { pageRules, validateRecords } from '../../src/embed/validate';
import { compileRules, RowValidator } from '../../src/rules';

const SCHEMA = {
  fields: [
    { key: 'email', label: 'Email', type: 'email', required: true, unique: true },
    { key: 'born', label: 'Born', type: 'date', formats: ['DD/MM/YYYY'] },
    { key: 'country', label: 'Country', type: 'enum', options: [{ value: 'DE', label: 'Germany', alternatives: ['Deutschland'] }, 'FR'] },
    { key: 'phone', type: 'phone', defaultCountry: 'DE' },
  ],
};

describe('the page rules', () => {
  it('are the server rules: same messages and stored values, row by row', () => {
    const records = [
      { email: 'a@example.com', born: '03/04/2025', country: 'deutschland', phone: '030 1234567' },
      { email: 'not-an-email', born: '2025.04.03', country: 'IT', phone: '12' },
      { email: 'a@example.com', born: '', country: '', phone: '' },
    ];
    const server = new RowValidator(compileRules(SCHEMA)!);
    const page = validateRecords(SCHEMA, records)!;
    assert.deepEqual(page, records.map((record) => { const { row, errors } = server.check({ ...record }); return { row, errors }; }));
    assert.deepEqual(page[0]!.row, { email: 'a@example.com', born: '2025-04-03', country: 'DE', phone: '+49301234567' });
    assert.deepEqual(page[1]!.errors!.map((error) => error.message), [
      'Email must be an e-mail address',
      'Born must be a date (DD/MM/YYYY)',
      'Country must be one of DE, FR',
      'phone must be a phone number',
    ]);
    assert.deepEqual(page[2]!.errors, [{ key: 'email', code: 'unique', message: 'email has the same value as an earlier row', params: { field: 'email' } }]);
  });

  it('offer enum options as choices, and check nothing for a free-form template', () => {
    assert.deepEqual(pageRules(SCHEMA)!.choices.get('country'), [{ value: 'DE', label: 'Germany' }, { value: 'FR', label: 'FR' }]);
    assert.equal(pageRules(SCHEMA)!.crossRow, true);
    for (const schema of [{}, { fields: 'x' }, { fields: [{ key: 'a', type: 'nope' }] }]) assert.equal(pageRules(schema), undefined);
  });
});

describe('the review model', () => {
  const columns = [
    { key: 'email', label: 'Email', column: 0 },
    { key: 'born', label: 'Born', column: 1 },
    { key: 'country', label: 'Country', column: -1 },
  ];
  const model = () => new ReviewModel(Rows.of([['a@example.com', '03/04/2025'], ['bad', 'x'], ['a@example.com', '01/01/2020'], ['b@example.com', 'x']]), columns, pageRules(SCHEMA));

  it('checks every row, filters to rows with problems and shows what the server stores', async () => {
    const review = model();
    assert.equal(await review.check(), true);
    assert.equal(review.invalidRows, 3);
    assert.deepEqual(review.rowErrors(2)!.map((error) => error.code), ['unique']);
    assert.deepEqual([...review.storedValues(0)], [['born', '2025-04-03']]);
    review.onlyProblems = true;
    review.refreshView();
    assert.deepEqual([0, 1, 2].map((position) => review.rowAt(position)), [1, 2, 3]);
    assert.equal(review.viewSize, 3);
  });

  it("skips invalid rows as the server's discard policy counts them: their values do not make later rows duplicates", async () => {
    const review = new ReviewModel(Rows.of([['a@example.com', 'x'], ['a@example.com', '01/01/2020']]), columns, pageRules(SCHEMA));
    await review.check();
    assert.equal(review.invalidRows, 2);
    review.skipInvalid = true;
    await review.check();
    assert.equal(review.invalidRows, 1);
    assert.deepEqual(review.recordsToSend(), [{ email: 'a@example.com', born: '01/01/2020' }]);
  });

  it('finds the rows holding a text in a column and re-checks an edit', async () => {
    const review = model();
    await review.check();
    assert.deepEqual(await review.rowsHolding(columns[1]!, 'x'), [1, 3]);
    for (const row of [1, 3]) review.setCell(row, columns[1]!, '05/06/2021');
    review.setCell(1, columns[0]!, 'c@example.com');
    await review.check([1, 3]);
    assert.equal(review.invalidRows, 1);
    assert.deepEqual(review.recordsToSend()[3], { email: 'b@example.com', born: '05/06/2021' });
    assert.deepEqual(review.rows.head(4)[1], ['c@example.com', '05/06/2021']);
  });

  it('replaces a text in one column only, and answers the rows it changed', async () => {
    const review = model();
    assert.deepEqual(await review.replaceInColumn(columns[0]!, 'example.com', 'example.org'), [0, 2, 3]);
    assert.deepEqual(await review.replaceInColumn(columns[1]!, '', 'y'), []);
    assert.deepEqual(await review.replaceInColumn(columns[2]!, 'x', 'y'), [], 'an unmapped column holds nothing');
    assert.deepEqual(review.rows.head(4), [['a@example.org', '03/04/2025'], ['bad', 'x'], ['a@example.org', '01/01/2020'], ['b@example.org', 'x']]);
    assert.deepEqual(await review.replaceInColumn(columns[1]!, 'x', '$&-$1'), [1, 3], 'the replacement is taken as typed');
    assert.equal(review.rows.cell(1, 1), '$&-$1');
  });

  it('checks every row after a pass left unfinished, not only the edited rows', async () => {
    const schema = { fields: [{ key: 'born', label: 'Born', type: 'date', formats: ['DD/MM/YYYY'] }] };
    const rows = Array.from({ length: 200_000 }, () => ['x']);
    const review = new ReviewModel(Rows.of(rows), [{ key: 'born', label: 'Born', column: 0 }], pageRules(schema));
    const first = review.check();
    for (const row of rows) row[0] = '01/01/2020';
    rows[5]![0] = 'y';
    assert.equal(await review.check([0]), true);
    assert.equal(await first, false, 'the first pass gave way');
    assert.equal(review.invalidRows, 1);
    assert.ok(review.rowErrors(5));
  });
});
