import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectDateFormat } from '../../src/embed/date-format';
import { readDeclared } from '../../src/embed/declared';
import { detectHeaderRow } from '../../src/embed/header-row';
import { createTranslator } from '../../src/embed/i18n/translate';
import { mappingIssues, mapView } from '../../src/embed/mapping-view';
import { Rows } from '../../src/embed/rows';
import { countValues, MAX_DISTINCT_VALUES, mostFrequent, rewriteValues, suggestValues } from '../../src/embed/value-mapping';
import type { Field } from '../../src/embed/template';

describe('detectHeaderRow', () => {
  const cases: [string, string[][], number][] = [
    ['a plain header', [['Name', 'Email'], ['Ada', 'ada@example.com']], 0],
    ['two title lines', [['Customer export', '', ''], ['Generated on 2026-01-31', '', ''], ['Name', 'Email', 'Zip'], ['Ada', 'ada@example.com', '01234']], 2],
    ['a blank line between', [['Report', ''], ['', ''], ['Name', 'Email'], ['Ada', 'a@b.co']], 2],
    ['numbers are data, not labels', [['Totals', '', ''], ['1', '2', '3'], ['Name', 'Count', 'Share'], ['a', '1', '2']], 2],
    ['repeated texts are data', [['x', 'x', 'x'], ['Name', 'Kind', 'Note']], 1],
    ['no row looks like labels: the first', [['1', '2'], ['3', '4']], 0],
    ['one column', [['Name'], ['Ada']], 0],
    ['nothing', [], 0],
  ];
  for (const [name, rows, expected] of cases) it(name, () => assert.equal(detectHeaderRow(Rows.of(rows)), expected));
});

describe('detectDateFormat', () => {
  const both = ['DD/MM/YYYY', 'MM/DD/YYYY'] as const;
  it('stays undecided while every value reads two ways, and names one', () => {
    assert.deepEqual(detectDateFormat(['03/04/2025', '05/06/2025'], [...both], false), { format: undefined, possible: ['DD/MM/YYYY', 'MM/DD/YYYY'], example: '03/04/2025' });
  });
  it('is decided by a value only one format reads', () => {
    assert.equal(detectDateFormat(['03/04/2025', '13/04/2025'], [...both], false).format, 'DD/MM/YYYY');
    assert.equal(detectDateFormat(['03/04/2025', '04/13/2025', ''], [...both], false).format, 'MM/DD/YYYY');
  });
  it('is decided when the formats agree on every value (day equals month)', () => {
    assert.equal(detectDateFormat(['04/04/2025'], [...both], false).format, 'DD/MM/YYYY');
  });
  it('looks among every text format when the field declares none, and finds ISO', () => {
    assert.equal(detectDateFormat(['2025-04-13'], undefined, false).format, 'YYYY-MM-DD');
    assert.equal(detectDateFormat(['13.04.2025'], ['excel'], false).format, 'DD.MM.YYYY');
  });
  it('keeps the formats that read the most values; none when nothing reads', () => {
    assert.equal(detectDateFormat(['04/13/2025', 'soon'], [...both], false).format, 'MM/DD/YYYY');
    assert.deepEqual(detectDateFormat(['soon', ''], [...both], false).possible, []);
  });
  it('reads date-times in the format', () => {
    assert.equal(detectDateFormat(['04/13/2025 10:30'], [...both], true).format, 'MM/DD/YYYY');
  });
  it('rewrites the column as ISO dates, leaving what the format does not read', async () => {
    const rows = [['Name', 'Born'], ['Ada', '03/04/2025'], ['Bob', 'soon'], ['Eve', ''], ['Max', ' 12/31/2024 ']];
    const rewritten = rewriteValues(Rows.of(rows), [], [{ column: 1, format: 'MM/DD/YYYY', withTime: false }]);
    assert.deepEqual(rewritten.head(rows.length).map((row) => row[1]), ['Born', '2025-03-04', 'soon', '', '2024-12-31']);
  });
});

describe('value mapping', () => {
  const options = [{ value: 'active', label: 'Active', alternatives: ['enabled'] }, { value: 'paused' }];
  const distinctValues = async (rows: string[][]) => mostFrequent((await countValues(Rows.of([['Header'], ...rows]), [0]))[0]!);
  it('lists distinct values, most frequent first, capped', async () => {
    assert.deepEqual(await distinctValues([['a'], [' b '], ['b'], [''], ['c'], ['b']]), [{ value: 'b', rows: 3 }, { value: 'a', rows: 1 }, { value: 'c', rows: 1 }]);
    assert.equal((await distinctValues(Array.from({ length: 500 }, (_, i) => [`v${i}`]))).length, MAX_DISTINCT_VALUES);
  });
  it("suggests from the options' texts first, then from what the account confirmed", () => {
    const values = [{ value: 'Enabled', rows: 2 }, { value: 'on hold', rows: 1 }, { value: 'ACTIVE', rows: 1 }, { value: 'gone', rows: 1 }, { value: 'x', rows: 1 }];
    const learned = { 'on hold': 'paused', ACTIVE: 'paused', gone: 'deleted' };
    assert.deepEqual(
      suggestValues(values, options, learned).map(({ value, option, source }) => [value, option, source]),
      [['Enabled', 'active', 'option'], ['on hold', 'paused', 'learned'], ['ACTIVE', 'active', 'option'], ['gone', '', undefined], ['x', '', undefined]],
    );
  });
  it('takes no learned value from the prototype', () => {
    assert.equal(suggestValues([{ value: 'constructor', rows: 1 }], options, {})[0]!.option, '');
  });
  it('rewrites the chosen values, trimmed, in a copy', () => {
    const rows = Rows.of([['Status'], [' on hold '], ['Enabled'], ['x']]);
    const rewritten = rewriteValues(rows, [{ column: 0, chosen: new Map([['on hold', 'paused'], ['Enabled', 'active']]) }], []);
    assert.deepEqual(rewritten.head(4), [['Status'], ['paused'], ['active'], ['x']]);
    rewritten.set(2, 0, 'paused');
    assert.deepEqual(rows.head(4), [['Status'], [' on hold '], ['Enabled'], ['x']], 'an edit of the copy leaves the table as read');
  });
});

describe('readDeclared', () => {
  it('reads options (strings, objects, the legacy enum), formats and extraColumns', () => {
    const declared = readDeclared({
      extraColumns: 'drop',
      fields: [{ key: 's', type: 'enum', options: ['a', { value: 'b', label: 'B', alternatives: ['bee', 3] }, { label: 'no value' }] }, { key: 'e', enum: ['x'] }, { key: 'd', type: 'date', formats: ['MM/DD/YYYY', 'nope'] }, 'bad'],
    });
    assert.deepEqual(declared.fields.get('s')!.options, [{ value: 'a' }, { value: 'b', label: 'B', alternatives: ['bee'] }]);
    assert.deepEqual(declared.fields.get('e')!.options, [{ value: 'x' }]);
    assert.deepEqual(declared.fields.get('d')!.formats, ['MM/DD/YYYY']);
    assert.equal(declared.keepExtraColumns, false);
    assert.equal(readDeclared({ fields: [] }).keepExtraColumns, true);
  });
});

describe('mappingIssues', () => {
  const field = (key: string, required = false): Field => ({ key, label: key.toUpperCase(), type: 'string', required, pattern: undefined, enum: undefined });
  it('flags a required field unmapped and every field sharing a column', () => {
    const issues = mappingIssues([field('a', true), field('b'), field('c'), field('d')], { a: -1, b: 0, c: 0, d: 1 }, ['One', 'Two']);
    assert.deepEqual(Object.fromEntries(issues), { a: { kind: 'required' }, b: { kind: 'twice', column: 'One', others: ['C'] }, c: { kind: 'twice', column: 'One', others: ['B'] } });
    assert.equal(mappingIssues([field('a', true)], { a: 0 }, ['One']).size, 0);
  });
});

describe('mapView', () => {
  const t = createTranslator(['en']);
  const input = (keepable: boolean) => ({
    fileSummary: 'f.csv',
    csv: undefined,
    preview: [['Name', 'Notes'], ['Ada', '<b>x</b>']],
    headerRow: 0,
    headers: ['Name', 'Notes'],
    fields: [{ key: 'name', label: 'Name', type: 'string' as const, required: true, pattern: undefined, enum: undefined }],
    mapping: { name: 0 },
    suggestions: { name: { column: 0, confidence: 0.95, learned: true } },
    samples: () => ['Ada'],
    extra: { keepable, columns: [{ column: 1, label: 'Notes', kept: false }] },
  });
  it('offers the columns without a field when the template keeps them, else names them as not imported', () => {
    assert.match(mapView(t, input(true)), /<input type="checkbox" data-keep-column="1"> Notes/);
    assert.match(mapView(t, input(false)), /Not imported: Notes\./);
    assert.doesNotMatch(mapView(t, input(false)), /data-keep-column/);
  });
  it('shows the evidence and escapes what the file holds', () => {
    const html = mapView(t, input(true));
    assert.match(html, /Suggested, 95% sure · learned from earlier imports/);
    assert.match(html, /&lt;b&gt;x&lt;\/b&gt;/);
  });
});
