import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import { createCliHarness, type CliHarness } from '../helpers/cli';

let cli: CliHarness;
const file = (name: string, text: string) => {
  const full = path.join(cli.dir, name);
  writeFileSync(full, text);
  return full;
};
const stored = async (importId: string) =>
  (await cli.sql<{ data: string }>('SELECT data FROM import_rows WHERE import_id = ? ORDER BY row_index', importId)).map((row) => JSON.parse(row.data));
const importCount = async () => (await cli.sql<{ n: number }>("SELECT count(*) AS n FROM imports WHERE status = 'complete'"))[0]!.n;

before(async () => {
  cli = await createCliHarness();
  assert.equal((await cli.run('env', 'create', 'ops')).code, 0);
});
after(() => cli.close());

describe('importd import FILE', () => {
  it('refuses a CSV row over IMPORTD_MAX_ROW_BYTES naming it, and an NDJSON integer beyond 2^53 is kept exactly', async () => {
    const before = await importCount();
    const csv = file('wide.csv', `a,b\r\n1,2\r\n3,${'x'.repeat(1_100_000)}\r\n`);
    const refused = await cli.run('import', csv, '--env', 'ops', '--template', 'wide');
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /validation_failed.*rows\.1/);
    assert.equal(await importCount(), before);
    const ndjson = file('big.ndjson', '{"id":12345678901234567890}\n');
    const { code, stdout, stderr } = await cli.run('import', ndjson, '--env', 'ops', '--template', 'exact', '--json');
    assert.equal(code, 0, stderr);
    const rows = await cli.sql('SELECT data FROM import_rows WHERE import_id = ?', JSON.parse(stdout).id);
    assert.deepEqual(rows, [{ data: '{"id":12345678901234567890}' }]);
  });

  it('loads a CSV with a BOM, quoted commas, quotes and newlines, keyed by the header row', async () => {
    const csv = file('contacts.csv', '\ufeffname,city,note\r\nAnn,"Zürich, CH","said ""hi"""\r\nBob,Berlin,"two\nlines"\r\n\r\n');
    const { code, stdout, stderr } = await cli.run('import', csv, '--env', 'ops', '--template', 'contacts', '--json');
    assert.equal(code, 0, stderr);
    const created = JSON.parse(stdout);
    assert.equal(created.rowCount, 2);
    assert.equal(created.importedFrom, 'cli');
    assert.equal(created.meta.file.name, 'contacts.csv');
    assert.deepEqual(await stored(created.id), [
      { name: 'Ann', city: 'Zürich, CH', note: 'said "hi"' },
      { name: 'Bob', city: 'Berlin', note: 'two\nlines' },
    ]);
  });

  it('keeps a __proto__ column of a CSV as a cell, and stops reading a record past twice the row limit', async () => {
    const csv = file('proto.csv', '__proto__,constructor,a\r\nx,y,=1+1\r\n');
    const { code, stdout, stderr } = await cli.run('import', csv, '--env', 'ops', '--template', 'proto', '--json');
    assert.equal(code, 0, stderr);
    const [row] = await stored(JSON.parse(stdout).id);
    assert.deepEqual(Object.entries(row), [['__proto__', 'x'], ['constructor', 'y'], ['a', '=1+1']]);
    const huge = file('huge.csv', `a\r\n"${'x'.repeat(2_200_000)}"\r\n`);
    const refused = await cli.run('import', huge, '--env', 'ops', '--template', 'huge');
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /^error \[payload_too_large\]: a row of the file .*IMPORTD_MAX_ROW_BYTES/);
  });

  it('loads an NDJSON file with typed cells, reusing the template by key', async () => {
    const ndjson = file('rows.ndjson', '{"name":"Ann","age":41,"vip":true}\n{"name":"Bob","age":null,"vip":false}\n');
    const first = JSON.parse((await cli.run('import', ndjson, '--env', 'ops', '--template', 'contacts', '--json')).stdout);
    assert.deepEqual(await stored(first.id), [
      { name: 'Ann', age: 41, vip: true },
      { name: 'Bob', age: null, vip: false },
    ]);
    const again = await cli.run('import', ndjson, '--env', 'ops', '--template', 'contacts');
    assert.match(again.stdout, new RegExp(`template ${first.templateId}`));
  });

  // Rows are parsed a batch of lines at a time: numbering and order hold across batches and slices.
  it('loads an NDJSON file of many slices in order, blank lines and CRLF skipped', async () => {
    // 200 KB: several chunks of the file stream, so several batches of lines.
    const lines = Array.from({ length: 1_000 }, (_, i) => `{"n":${i},"s":"${'r'.repeat(190)}${i}"}`);
    const text = `${lines.slice(0, 600).join('\n')}\r\n\n${lines.slice(600).join('\r\n')}`;
    const created = JSON.parse((await cli.run('import', file('many.ndjson', text), '--env', 'ops', '--template', 'many', '--json')).stdout);
    assert.equal(created.rowCount, 1_000);
    assert.deepEqual(await stored(created.id), lines.map((line) => JSON.parse(line)));
  });

  it('names a bad line past the first slices and stores nothing', async () => {
    const before = await importCount();
    const lines = Array.from({ length: 1_000 }, (_, i) => (i === 776 ? '{"n":' : `{"n":${i},"s":"${'r'.repeat(190)}"}`));
    const { code, stderr } = await cli.run('import', file('bad-late.ndjson', lines.join('\n')), '--env', 'ops', '--template', 'late');
    assert.equal(code, 2, stderr);
    assert.match(stderr, /^error \[invalid_json\]: line 777 is not valid JSON/);
    assert.equal(await importCount(), before);
  });

  it('exports what it imported, byte for byte through NDJSON', async () => {
    const ndjson = file('round.ndjson', '{"a":"x,y","b":2}\n{"a":"","b":-0.5}\n');
    const created = JSON.parse((await cli.run('import', ndjson, '--env', 'ops', '--template', 'round', '--json')).stdout);
    const exported = await cli.run('export', created.id, '--format', 'ndjson');
    assert.equal(exported.stdout, '{"a":"x,y","b":2}\n{"a":"","b":-0.5}\n');
  });

  const failures: [string, () => string[], number, RegExp][] = [
    ['an unknown environment', () => [file('a.csv', 'x\n1\n'), '--env', 'nope', '--template', 't'], 3, /error \[not_found\]: environment nope/],
    ['a missing file', () => [path.join(cli.dir, 'missing.csv'), '--env', 'ops', '--template', 't'], 3, /not_found/],
    ['an unknown format', () => [file('a.txt', 'x'), '--env', 'ops', '--template', 't'], 2, /validation_failed/],
    ['a duplicate CSV column', () => [file('dup.csv', 'a,a\n1,2\n'), '--env', 'ops', '--template', 't'], 2, /appears twice/],
    ['a ragged CSV row', () => [file('ragged.csv', 'a,b\n1,2\n3\n'), '--env', 'ops', '--template', 't'], 2, /validation_failed/],
    ['bad JSON on line 2', () => [file('bad.ndjson', '{"a":1}\n{"a":\n'), '--env', 'ops', '--template', 't'], 2, /line 2/],
    ['a cell that is an object', () => [file('obj.ndjson', '{"a":{"b":1}}\n'), '--env', 'ops', '--template', 't'], 2, /rows\.0\.a/],
    ['an empty CSV file', () => [file('empty.csv', ''), '--env', 'ops', '--template', 'new-a'], 2, /^error \[validation_failed\]: file: .*empty\.csv is empty\n$/],
    ['a CSV file with only blank lines', () => [file('blank.csv', '\n\r\n\n'), '--env', 'ops', '--template', 'new-b'], 2, /blank\.csv has no data rows/],
    ['a CSV header without rows', () => [file('header.csv', 'name;email\r\n'), '--env', 'ops', '--template', 'new-c'], 2, /header\.csv has no data rows/],
    ['an empty NDJSON file', () => [file('empty.ndjson', '\n'), '--env', 'ops', '--template', 'new-d'], 2, /empty\.ndjson has no rows/],
    ['an unknown --charset', () => [file('c.csv', 'a\n1\n'), '--env', 'ops', '--template', 't', '--charset', 'ebcdic'], 2, /--charset: give auto/],
    ['an XLSX without the named sheet', () => [file('s.csv', 'a\n1\n'), '--env', 'ops', '--template', 't', '--format', 'xlsx'], 2, /not a readable XLSX/],
    ['a two-character --delimiter', () => [file('d.csv', 'a\n1\n'), '--env', 'ops', '--template', 't', '--delimiter', ';;'], 2, /--delimiter: give one character/],
  ];
  for (const [label, args, expected, pattern] of failures) {
    it(`fails with exit ${expected} on ${label} and stores nothing`, async () => {
      const before = await importCount();
      const { code, stderr } = await cli.run('import', ...args());
      assert.equal(code, expected, stderr);
      assert.match(stderr, pattern);
      assert.equal(await importCount(), before);
    });
  }

  it('an empty file creates no template either', async () => {
    const templates = await cli.run('templates', 'list', '--json');
    assert.ok(!JSON.parse(templates.stdout).data.some((t: { key: string }) => t.key.startsWith('new-')));
  });

  const delimited: [string, string, string[]][] = [
    ['semicolons (a spreadsheet in a comma-decimal locale)', 'name;price;note\nAnn;1,50;"a;b"\n', []],
    ['tabs', 'name\tprice\tnote\nAnn\t1,50\ta;b\n', []],
    ['pipes', 'name|price|note\nAnn|1,50|a;b\n', []],
    ['a quoted header name holding commas', '"name, full";price;note\nAnn;1,50;"a;b"\n', []],
    ['--delimiter tab', 'name\tprice\tnote\nAnn\t1,50\ta;b\n', ['--delimiter', 'tab']],
  ];
  for (const [label, text, extra] of delimited) {
    it(`detects or takes the delimiter: ${label}`, async () => {
      const csv = file('delimited.csv', text);
      const result = await cli.run('import', csv, '--env', 'ops', '--template', 'priced', '--json', ...extra);
      assert.equal(result.code, 0, result.stderr);
      const [row] = await stored(JSON.parse(result.stdout).id);
      assert.deepEqual(Object.values(row), ['Ann', '1,50', 'a;b']);
    });
  }

  it('reads what an upload reads: UTF-16 and Windows-1252 text, a later header line, an XLSX sheet', async () => {
    const utf16 = path.join(cli.dir, 'utf16.csv');
    writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name;city\r\nZoë;Zürich\r\n', 'utf16le')]));
    const latin = path.join(cli.dir, 'latin.csv');
    writeFileSync(latin, Buffer.from('exported\nname,city\nZo\xeb,Z\xfcrich\n', 'latin1'));
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Notes').addRow(['x']);
    book.addWorksheet('People').addRows([['name', 'city'], ['Zoë', 'Zürich']]);
    const xlsx = path.join(cli.dir, 'people.xlsx');
    writeFileSync(xlsx, Buffer.from(await book.xlsx.writeBuffer()));
    for (const args of [[utf16], [latin, '--header-row', '2'], [xlsx, '--sheet', 'People']]) {
      const result = await cli.run('import', ...args, '--env', 'ops', '--template', 'cities', '--json');
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(await stored(JSON.parse(result.stdout).id), [{ name: 'Zoë', city: 'Zürich' }]);
    }
  });

  it('detects "," for a one-column file and when commas win', async () => {
    const result = await cli.run('import', file('one.csv', 'name\nAnn\n'), '--env', 'ops', '--template', 'one', '--json');
    assert.deepEqual(await stored(JSON.parse(result.stdout).id), [{ name: 'Ann' }]);
  });
});

describe('importd import FILE under IMPORTD_MAX_IMPORT_BYTES', () => {
  let small: CliHarness;
  before(async () => {
    small = await createCliHarness({ IMPORTD_MAX_IMPORT_BYTES: '2kb' });
    assert.equal((await small.run('env', 'create', 'ops')).code, 0);
  });
  after(() => small.close());

  const write = (name: string, text: string) => {
    const full = path.join(small.dir, name);
    writeFileSync(full, text);
    return full;
  };
  const counts = async () =>
    (await small.sql('SELECT (SELECT count(*) FROM imports) AS imports, (SELECT count(*) FROM import_rows) AS rows, (SELECT count(*) FROM templates) AS templates'))[0];

  it('refuses a CSV or NDJSON file over the cap with payload_too_large, storing nothing (no import, no template)', async () => {
    const before = await counts();
    const csv = write('big.csv', `note\n${'x'.repeat(100)}\n`.repeat(30));
    const ndjson = write('big.ndjson', `{"note":"${'x'.repeat(100)}"}\n`.repeat(30));
    for (const file of [csv, ndjson]) {
      const refused = await small.run('import', file, '--env', 'ops', '--template', 'big');
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /payload_too_large.*2048 bytes \(IMPORTD_MAX_IMPORT_BYTES\)/);
    }
    assert.deepEqual(await counts(), before);
  });

  it('loads a file of exactly the cap', async () => {
    const line = `{"note":"${'x'.repeat(500)}"}\n`;
    const rows = Math.floor(2048 / line.length) - 1;
    const text = line.repeat(rows) + `{"n":"${'y'.repeat(2048 - rows * line.length - 9)}"}\n`;
    assert.equal(Buffer.byteLength(text), 2048);
    const { code, stdout, stderr } = await small.run('import', write('exact.ndjson', text), '--env', 'ops', '--template', 'exact', '--json');
    assert.equal(code, 0, stderr);
    assert.equal(JSON.parse(stdout).rowCount, rows + 1);
  });
});
