import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unnamedColumn, uploadMetadata, type FileReading } from '../../src/embed/upload-metadata';

const reading = (over: Partial<FileReading> = {}): FileReading => ({
  templateId: 'tpl',
  kind: 'csv',
  sheet: undefined,
  csv: { charset: 'windows-1252', delimiter: '\t' },
  headerRow: 2,
  header: [' Name ', 'E-mail', 'Notes'],
  mapping: { name: 0, email: 1, phone: -1 },
  ...over,
});
const file = { name: 'big.csv', type: 'text/csv' } as File;

describe('the importer: what a large file tells the server (Upload-Metadata)', () => {
  it('names the columns by their header cells as written, the reading shown, and the 1-based header row', () => {
    assert.deepEqual(uploadMetadata(file, reading()), {
      filename: 'big.csv',
      filetype: 'text/csv',
      templateId: 'tpl',
      format: 'csv',
      charset: 'windows-1252',
      delimiter: 'tab',
      headerRow: '3',
      mapping: JSON.stringify({ name: ' Name ', email: 'E-mail' }),
    });
    const xlsx = uploadMetadata({ name: 'big.xlsx', type: '' } as File, reading({ kind: 'xlsx', csv: undefined, sheet: 'People', headerRow: 0 }));
    assert.equal(xlsx.sheet, 'People');
    assert.equal(xlsx.format, 'xlsx');
    assert.equal(xlsx.headerRow, '1');
    assert.equal('charset' in xlsx || 'delimiter' in xlsx, false);
  });

  const cases: { name: string; over: Partial<FileReading>; column: number }[] = [
    { name: 'distinct names', over: {}, column: -1 },
    { name: 'an unnamed column not imported', over: { header: ['Name', 'Email', ''] }, column: -1 },
    { name: 'an unnamed column imported', over: { header: ['', 'Email', 'Notes'] }, column: 0 },
    { name: 'a name written twice, even unmapped', over: { header: ['Name', 'Email', 'Name'] }, column: 2 },
    { name: 'two unnamed columns of a CSV (the server reads both as "")', over: { header: ['Name', 'Email', '', ''] }, column: 3 },
    { name: 'two unnamed columns of an XLSX (the server skips them)', over: { kind: 'xlsx', header: ['Name', 'Email', '', ''] }, column: -1 },
  ];
  for (const c of cases) {
    it(`finds the column the server could not name: ${c.name}`, () => {
      assert.equal(unnamedColumn(reading(c.over)), c.column);
    });
  }
});
