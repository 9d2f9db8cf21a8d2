import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeText } from '../../src/embed/decode';
import { headerLabels, trimTable } from '../../src/embed/table';

const utf16 = (text: string, bigEndian: boolean) => {
  const little = Buffer.from(text, 'utf16le');
  return bigEndian ? Buffer.from(little).swap16() : little;
};

describe('decodeText', () => {
  const cases: { name: string; bytes: Uint8Array; text: string; charset: string; uncertain: boolean }[] = [
    { name: 'UTF-8 without BOM', bytes: Buffer.from('Zoë;Müller'), text: 'Zoë;Müller', charset: 'utf-8', uncertain: false },
    { name: 'UTF-8 with BOM (the BOM is not text)', bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Name')]), text: 'Name', charset: 'utf-8', uncertain: false },
    { name: 'UTF-16 LE with BOM', bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), utf16('Ægir\t1', false)]), text: 'Ægir\t1', charset: 'utf-16le', uncertain: false },
    { name: 'UTF-16 BE with BOM', bytes: Buffer.concat([Buffer.from([0xfe, 0xff]), utf16('Ægir\t1', true)]), text: 'Ægir\t1', charset: 'utf-16be', uncertain: false },
    // Bytes 0x80-0x9F are left out: Node decodes them as Latin-1 controls, browsers as Windows-1252 (€, “).
    { name: 'Windows-1252 (not valid UTF-8): a guess', bytes: Buffer.from('Renée Müller', 'latin1'), text: 'Renée Müller', charset: 'windows-1252', uncertain: true },
    { name: 'plain ASCII', bytes: Buffer.from('a,b\n1,2'), text: 'a,b\n1,2', charset: 'utf-8', uncertain: false },
    { name: 'empty', bytes: new Uint8Array(), text: '', charset: 'utf-8', uncertain: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(decodeText(c.bytes), { text: c.text, charset: c.charset, uncertain: c.uncertain });
    });
  }

  it('decodes with the charset the user chose, instead of the detected one', () => {
    const bytes = Buffer.from('Müller');
    assert.equal(decodeText(bytes).text, 'Müller');
    assert.equal(decodeText(bytes, 'windows-1252').text, 'MÃ¼ller');
  });
});

describe('trimTable and headerLabels', () => {
  it('drops empty trailing rows and columns, keeps empty cells inside the table, pads short rows', () => {
    const rows = [
      ['a', 'b', '', ''],
      ['1', '', '3'],
      ['', ' ', '', ''],
      ['4'],
      ['', '', '', ''],
      [' '],
    ];
    assert.deepEqual(trimTable(rows), [
      ['a', 'b', ''],
      ['1', '', '3'],
      ['', ' ', ''],
      ['4', '', ''],
    ]);
    assert.deepEqual(trimTable([['', ''], ['']]), []);
  });

  it('makes header labels unique and non-empty', () => {
    assert.deepEqual(headerLabels(['Email', ' Email ', '', 'Email']), ['Email', 'Email (2)', 'Column 3', 'Email (3)']);
  });
});
