import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import { useLiveHarness } from '../helpers/use-harness';
import { settledUpload, tusUpload, uploadIdOf } from '../helpers/tus';

// exceljs' streaming reader decodes each inflated piece of XML on its own: a character of 2 to 4 UTF-8 bytes
// cut by a piece's end came out as U+FFFD (xlsx-rows.ts hands it pieces ending on whole characters). Cells of
// nearly only multibyte characters make hundreds of KiB of XML, so every piece boundary falls inside one.
const ROWS = 1500;
const rowOf = (i: number) => ({
  name: `${i} Zoë Ørsted — 東京都 ${'ü€'.repeat(i % 17)} 😀`,
  city: `${'Ελληνικά 日本語 '.repeat(1 + (i % 5))}🇫🇷 ${i}`,
});
const source = Array.from({ length: ROWS }, (_, i) => rowOf(i));

/**
 * The workbook with its text in shared strings or in the sheet, from exceljs' streaming writer (its Workbook
 * writer damages a 4-byte character now and then where its string buffer grows).
 */
async function workbook(useSharedStrings: boolean): Promise<Buffer> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (part: Buffer) => parts.push(part));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings });
  const sheet = book.addWorksheet('People');
  sheet.addRow(['name', 'city']).commit();
  for (const row of source) sheet.addRow([row.name, row.city]).commit();
  sheet.commit();
  await book.commit();
  return Buffer.concat(parts);
}

describe('/v1/uploads: XLSX text of multibyte characters', () => {
  const { env, server } = useLiveHarness();
  const auth = () => ({ Authorization: `Bearer ${env.secretKey}` });

  for (const sharedStrings of [true, false]) {
    it(`exports every character as written, text ${sharedStrings ? 'in shared strings' : 'in the sheet'}`, async () => {
      const bytes = await workbook(sharedStrings);
      const url = await tusUpload(server.url, bytes, { headers: auth(), metadata: { templateKey: 'people', filename: 'people.xlsx' } });
      const view = await settledUpload(server.url, uploadIdOf(url), auth());
      assert.equal(view.status, 'completed', JSON.stringify(view));
      const exported = await fetch(`${server.url}/v1/imports/${view.importId}/export?format=ndjson`, { headers: auth() });
      assert.equal(exported.status, 200);
      const rows = (await exported.text()).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, string>);
      assert.equal(rows.length, ROWS);
      const damaged = rows.findIndex((row, i) => row.name !== source[i]!.name || row.city !== source[i]!.city);
      assert.equal(damaged, -1, `row ${damaged}: ${JSON.stringify(rows[damaged])}`);
    });
  }
});
