import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import { json } from '../helpers/harness';
import { useLiveHarness } from '../helpers/use-harness';
import { settledUpload, tusUpload, uploadIdOf } from '../helpers/tus';

async function workbook(sheets: Record<string, unknown[][]>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) book.addWorksheet(name).addRows(rows);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/**
 * A zip of one sheet entry of `inflated` zero bytes, deflated, whose directory and local header say it expands to
 * `claimed` bytes: a zip bomb that says so (claimed huge), or one that lies (claimed small).
 */
function zipBomb(claimed: number, inflated: number): Buffer {
  const name = Buffer.from('xl/worksheets/sheet1.xml');
  const data = deflateRawSync(Buffer.alloc(inflated));
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(claimed, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(claimed, 24);
  central.writeUInt16LE(name.length, 28);
  const directoryOffset = local.length + name.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(directoryOffset, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

describe('/v1/uploads: files read on the server', () => {
  const { h, env, server } = useLiveHarness({ config: { IMPORTD_MAX_ROW_BYTES: '2kb' } });
  const auth = () => ({ Authorization: `Bearer ${env.secretKey}` });
  const upload = async (data: Buffer, metadata: Record<string, string>) => {
    const url = await tusUpload(server.url, data, { headers: auth(), metadata: { templateKey: 'people', ...metadata } });
    return await settledUpload(server.url, uploadIdOf(url), auth());
  };
  const rowsOf = async (importId: string) =>
    (await json(await fetch(`${server.url}/v1/imports/${importId}/rows?limit=100`, { headers: auth() }))).data.map((row: { data: unknown }) => row.data);

  const texts: { name: string; bytes: Buffer; metadata: Record<string, string> }[] = [
    { name: 'UTF-16LE with a byte order mark and ; delimiters', bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name;city\r\nZoë;Zürich\r\n', 'utf16le')]), metadata: { filename: 'a.csv' } },
    { name: 'Windows-1252 (not UTF-8) detected', bytes: Buffer.from('name,city\nZo\xeb,Z\xfcrich\n', 'latin1'), metadata: { filename: 'a.csv' } },
    { name: 'UTF-8 with a byte order mark, tab-separated (.tsv)', bytes: Buffer.from('\ufeffname\tcity\nZoë\tZürich\n'), metadata: { filename: 'a.tsv' } },
    { name: 'a header on line 3 and a given delimiter', bytes: Buffer.from('export of 2026\n\nname|city\nZoë|Zürich\n'), metadata: { filename: 'a.txt', headerRow: '3', delimiter: '|' } },
    { name: 'NDJSON', bytes: Buffer.from('{"name":"Zoë","city":"Zürich"}\n'), metadata: { filename: 'a.ndjson' } },
  ];
  for (const c of texts) {
    it(`reads ${c.name}`, async () => {
      const view = await upload(c.bytes, c.metadata);
      assert.equal(view.status, 'completed', JSON.stringify(view));
      assert.deepEqual(await rowsOf(view.importId), [{ name: 'Zoë', city: 'Zürich' }]);
    });
  }

  it('reads a CSV of several slices with a confirmed mapping: every row, in order, under its schema keys', async () => {
    // 601 rows: two full slices of 250 and a short one, each mapped.
    const lines = Array.from({ length: 601 }, (_, i) => `x${i},Person ${i},City ${i}`);
    const view = await upload(Buffer.from(`Ignored,Full name,Town\n${lines.join('\n')}\n`), { filename: 'a.csv', mapping: JSON.stringify({ name: 'Full name', city: 'Town' }) });
    assert.equal(view.status, 'completed', JSON.stringify(view));
    const exported = await fetch(`${server.url}/v1/imports/${view.importId}/export?format=ndjson`, { headers: auth() });
    const rows = (await exported.text()).trimEnd().split('\n').map((line) => JSON.parse(line) as unknown);
    assert.deepEqual(rows, Array.from({ length: 601 }, (_, i) => ({ name: `Person ${i}`, city: `City ${i}` })));
  });

  it('reads the named sheet of an XLSX workbook from its header row, with a confirmed mapping, and keeps the file', async () => {
    const bytes = await workbook({
      Notes: [['nothing here']],
      People: [['exported'], ['Full name', 'Born', 'Score', 'Ignored'], ['Ada', new Date(Date.UTC(1995, 11, 10)), 36, 'x'], ['Grace', new Date(Date.UTC(1906, 11, 9)), 45.5, 'y']],
    });
    const view = await upload(bytes, { filename: 'people.xlsx', sheet: 'People', headerRow: '2', mapping: JSON.stringify({ name: 'Full name', born: 'Born', score: 'Score' }) });
    assert.equal(view.status, 'completed', JSON.stringify(view));
    assert.deepEqual(await rowsOf(view.importId), [
      { name: 'Ada', born: '1995-12-10', score: 36 },
      { name: 'Grace', born: '1906-12-09', score: 45.5 },
    ]);
    const detail = await json(await fetch(`${server.url}/v1/imports/${view.importId}`, { headers: auth() }));
    const listed = await json(await fetch(`${server.url}/v1/imports?limit=1`, { headers: auth() }));
    assert.equal(listed.data[0].fileId, view.id);
    assert.equal(detail.file.fileId, view.id);
    assert.equal(detail.file.name, 'people.xlsx');
    assert.equal(detail.file.sizeBytes, bytes.length);
    assert.equal(detail.file.sha256, createHash('sha256').update(bytes).digest('hex'));
    assert.equal(detail.file.sheet, 'People');
    assert.equal(detail.file.mime, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');

    const file = await fetch(`${server.url}/v1/imports/${view.importId}/file`, { headers: auth() });
    assert.equal(file.status, 200);
    assert.match(file.headers.get('Content-Disposition')!, /attachment; filename="people.xlsx"/);
    assert.ok(Buffer.from(await file.arrayBuffer()).equals(bytes));
    const part = await fetch(`${server.url}/v1/imports/${view.importId}/file`, { headers: { ...auth(), Range: 'bytes=10-19' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('Content-Range'), `bytes 10-19/${bytes.length}`);
    assert.ok(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20)));
    const outside = await fetch(`${server.url}/v1/imports/${view.importId}/file`, { headers: { ...auth(), Range: `bytes=${bytes.length}-` } });
    assert.equal(outside.status, 416);
    assert.equal((await json(outside)).error.code, 'range_not_satisfiable');

    const kept = path.join(h.ctx.config.uploads.filesDir, 'uploads', view.id);
    assert.ok(existsSync(kept));
    assert.equal((await fetch(`${server.url}/v1/imports/${view.importId}`, { method: 'DELETE', headers: auth() })).status, 200);
    assert.ok(!existsSync(kept));
    assert.deepEqual(await h.sql('SELECT id FROM uploads WHERE id = ?', view.id), []);
    assert.equal((await fetch(`${server.url}/v1/imports/${view.importId}/file`, { headers: auth() })).status, 404);
  });

  const bad: { name: string; bytes: () => Promise<Buffer>; metadata: Record<string, string>; code: string; message: RegExp }[] = [
    { name: 'a truncated XLSX', bytes: async () => (await workbook({ S: [['a'], ['1']] })).subarray(0, 2000), metadata: { filename: 'a.xlsx' }, code: 'validation_failed', message: /not a readable XLSX/ },
    { name: 'a zip bomb inside an XLSX', bytes: async () => zipBomb(2 ** 31, 1024 ** 2), metadata: { filename: 'a.xlsx' }, code: 'validation_failed', message: /zip bomb/ },
    // 80 MB of inflated XML from 80 kB that claims 1 kB: over the 64 MiB any workbook may expand to.
    { name: 'a zip bomb whose directory lies', bytes: async () => zipBomb(1024, 80 * 1024 ** 2), metadata: { filename: 'a.xlsx' }, code: 'validation_failed', message: /zip bomb/ },
    {
      name: 'an XLSX with bytes hidden between its entries',
      bytes: async () => {
        const book = await workbook({ S: [['a'], ['1']] });
        const at = book.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), 4);
        return Buffer.concat([book.subarray(0, at), Buffer.from('hidden'), book.subarray(at)]);
      },
      metadata: { filename: 'a.xlsx' },
      code: 'validation_failed',
      message: /not a readable XLSX/,
    },
    { name: 'a binary file named .csv', bytes: async () => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0]), metadata: { filename: 'a.csv' }, code: 'validation_failed', message: /not text/ },
    { name: 'a CSV whose one line is over the row cap', bytes: async () => Buffer.from(`name\n${'x'.repeat(20_000)}\n`), metadata: { filename: 'a.csv' }, code: 'payload_too_large', message: /a row of the file \(read up to its line 2\) is longer than a row may be \(2048 bytes, IMPORTD_MAX_ROW_BYTES\)/ },
    { name: 'a CSV whose quoted cell is never closed', bytes: async () => Buffer.from(`name\nAda\n"${'x,\n'.repeat(10_000)}`), metadata: { filename: 'a.csv' }, code: 'payload_too_large', message: /read up to its line \d+\) is longer .*IMPORTD_MAX_ROW_BYTES.*quotes closed/ },
    { name: 'a mapping naming a column the file lacks', bytes: async () => Buffer.from('name\nAda\n'), metadata: { filename: 'a.csv', mapping: '{"name":"Full name"}' }, code: 'validation_failed', message: /not in the file's header/ },
  ];
  for (const c of bad) {
    it(`ends ${c.name} failed with a clear error, nothing stored, the file removed`, async () => {
      const count = async () => [
        Number((await h.sql<{ count: number }>('SELECT count(*) AS count FROM imports'))[0]!.count),
        Number((await h.sql<{ count: number }>('SELECT count(*) AS count FROM import_rows'))[0]!.count),
      ];
      const before = await count();
      const view = await upload(await c.bytes(), c.metadata);
      assert.equal(view.status, 'failed', JSON.stringify(view));
      assert.equal(view.error.code, c.code);
      assert.match(view.error.message, c.message);
      assert.equal(view.importId, null);
      assert.deepEqual(await count(), before);
      assert.ok(!existsSync(path.join(h.ctx.config.uploads.filesDir, 'uploads', view.id)));
    });
  }
});
