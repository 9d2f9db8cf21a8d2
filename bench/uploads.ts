// npm run bench -- --uploads: a large CSV sent with tus-js-client through two cut connections, turned into an
// import by the server, its export checked byte for byte, against a floor that parses the same file with the
// same CSV parser and inserts the rows raw (SQLite: one prepared statement; --pg: one COPY). With --xlsx, a
// 200 MB XLSX workbook of the same rows instead (no floor: its peak RSS and wall time).
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { CONTACT_COLUMNS, contactsCsv } from '../test/helpers/contacts-csv';
import { runBin, startServe } from '../test/helpers/process';
import { tusUploadWithCuts } from '../test/helpers/tus';
import { scratch } from './floors';
import { peakRssMiB, request, type Api } from './http';
import { copyRowTexts, pgScratch } from './pg-floors';
// @ts-expect-error: a plain ES module of the scripts, without types
import { startPgServer } from '../scripts/pg-server.mjs';

type Record = (name: string, value: number, unit: string, floor?: number, target?: string) => void;

/** Where the upload's connection is cut, as shares of its bytes. */
const CUTS = [0.3, 0.7];

/** The generated CSV written to `file` (contactsCsv: its import's export must be these bytes); its SHA-256 and rows. */
async function writeSourceCsv(file: string, bytes: number): Promise<{ sha256: string; rows: number }> {
  const hash = createHash('sha256');
  const csv = contactsCsv(bytes);
  const hashed = new Transform({ transform: (chunk: Buffer, _encoding, done) => (hash.update(chunk), done(null, chunk)) });
  await pipeline(Readable.from(csv.pieces), hashed, createWriteStream(file));
  return { sha256: hash.digest('hex'), rows: csv.rows() };
}

/** The largest RSS of a process sampled every 100 ms; next() answers it since the last call (MiB). */
function rssSampler(pid: number) {
  let largest = 0;
  const timer = setInterval(() => {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    largest = Math.max(largest, match ? Number(match[1]) / 1024 : 0);
  }, 100);
  return {
    next: () => [largest, (largest = 0)][0]!,
    stop: () => clearInterval(timer),
  };
}

/** Polls GET /v1/uploads/{id} until it settles; the import's id. */
async function settled(api: Api, url: string): Promise<string> {
  for (;;) {
    const view = (await (await request(api, 'GET', new URL(url).pathname)).json()) as { status: string; importId: string; error: unknown };
    if (view.status === 'completed') return view.importId;
    if (view.status === 'failed') throw new Error(`the upload failed: ${JSON.stringify(view.error)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The export's SHA-256, read as it streams. */
async function exportSha256(api: Api, importId: string): Promise<string> {
  const response = await request(api, 'GET', `/v1/imports/${importId}/export?format=csv`);
  if (response.status !== 200) throw new Error(`export: ${response.status} ${await response.text()}`);
  const hash = createHash('sha256');
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) hash.update(chunk);
  return hash.digest('hex');
}

/** The file read from disk and parsed by csv-parse with the settings importd uses, each record as its row's JSON text. */
function parsedRows(file: string): AsyncIterable<string> {
  let header: string[] | undefined;
  const rows = new Transform({
    objectMode: true,
    transform(record: string[], _encoding, done) {
      if (header === undefined) {
        header = record;
        return done();
      }
      const row: { [key: string]: string } = {};
      for (let i = 0; i < record.length; i++) row[header[i]!] = record[i]!;
      done(null, JSON.stringify(row));
    },
  });
  return createReadStream(file, { highWaterMark: 256 * 1024 }).pipe(parse({ bom: true, delimiter: ',', skip_empty_lines: true })).pipe(rows);
}

/** SQLite floor: parse, then one reused prepared insert per row, committed every 10 000 rows. */
async function sqliteFloor(file: string): Promise<number> {
  const s = scratch();
  const insert = s.db.prepare('INSERT INTO import_rows (import_id, row_index, data) VALUES (?, ?, ?)');
  const id = 'floor-upload'.padEnd(36, '-');
  const started = performance.now();
  let index = 0;
  s.db.exec('BEGIN');
  for await (const data of parsedRows(file)) {
    insert.run(id, index++, data);
    if (index % 10_000 === 0) s.db.exec('COMMIT; BEGIN');
  }
  s.db.exec('COMMIT');
  const ms = performance.now() - started;
  s.close();
  return ms;
}

/** PostgreSQL floor: parse, then one COPY of every row (text format). */
async function copyFloorOf(db: string, file: string): Promise<number> {
  const pool = await pgScratch(db);
  const started = performance.now();
  await copyRowTexts(pool, 'floor-upload', parsedRows(file));
  const ms = performance.now() - started;
  await pool.end();
  return ms;
}

/** The upload-to-import figure of a `bytes`-byte CSV on SQLite, or on a throw-away PostgreSQL server. */
export async function benchUploads(record: Record, bytes: number, postgres: boolean, serverEnv: { [name: string]: string }): Promise<void> {
  await inBenchFolder(postgres, async (dir, db) => {
    const source = path.join(dir, 'contacts.csv');
    const { sha256, rows } = await writeSourceCsv(source, bytes);
    const label = postgres ? 'pg: ' : '';
    const run = await uploadToImport(record, dir, db, source, sha256, serverEnv);
    const floor = postgres ? await copyFloorOf(db, source) : await sqliteFloor(source);
    record(`${label}upload ${(run.size / 1e6).toFixed(0)} MB CSV (${rows} rows, cut at 30 % and 70 %) to import`, run.ms, 'ms', floor, postgres ? 'ratio <= 1.8' : 'ratio <= 1.5');
    run.report(label);
  });
}

/**
 * The same for a `bytes`-byte XLSX workbook of the same rows, written by exceljs' streaming writer with its text in
 * the sheet (inline: shared strings of millions of distinct cells would be held whole by any streaming reader),
 * every cell text; its import's CSV export must be the bytes of the CSV of those rows. No floor: the figure is the
 * server's peak RSS (issue 44: under 300 MiB) and the wall time.
 */
export async function benchXlsxUpload(record: Record, bytes: number, postgres: boolean, serverEnv: { [name: string]: string }): Promise<void> {
  await inBenchFolder(postgres, async (dir, db) => {
    const source = path.join(dir, 'contacts.xlsx');
    const written = performance.now();
    const { sha256, rows } = await writeSourceXlsx(source, bytes);
    console.log(`(the workbook of ${rows} rows written in ${((performance.now() - written) / 1000).toFixed(1)} s)`);
    const label = postgres ? 'pg: ' : '';
    const run = await uploadToImport(record, dir, db, source, sha256, serverEnv);
    record(`${label}upload ${(run.size / 1e6).toFixed(0)} MB XLSX (${rows} rows, cut at 30 % and 70 %) to import`, run.ms, 'ms');
    run.report(label);
  });
}

/** Rows in the workbook written to measure how many rows a workbook of the wanted size holds. */
const SAMPLE_ROWS = 50_000;

/** The contacts' rows (contactsCsv) as an XLSX sheet of about `bytes` bytes; the SHA-256 of their CSV and rows. */
async function writeSourceXlsx(file: string, bytes: number): Promise<{ sha256: string; rows: number }> {
  await writeContactsXlsx(file, SAMPLE_ROWS);
  const perRow = statSync(file).size / SAMPLE_ROWS;
  // contactsCsv makes rows 10 000 at a time.
  const rows = Math.max(1, Math.round(bytes / perRow / 10_000)) * 10_000;
  return { sha256: await writeContactsXlsx(file, rows), rows };
}

/** The first `rows` rows of contactsCsv (a multiple of 10 000), parsed, as an XLSX sheet; the SHA-256 of their CSV. */
async function writeContactsXlsx(file: string, rows: number): Promise<string> {
  const output = createWriteStream(file);
  const closed = new Promise<void>((resolve) => output.on('close', () => resolve()));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useSharedStrings: false, useStyles: false });
  const sheet = book.addWorksheet('Contacts');
  const csv = contactsCsv(Number.MAX_SAFE_INTEGER);
  const hash = createHash('sha256');
  const records = parse({ bom: true });
  // The header row too: the sheet's first row.
  records.on('data', (record: string[]) => sheet.addRow(record).commit());
  for (const piece of csv.pieces) {
    hash.update(piece);
    await new Promise<void>((resolve) => records.write(piece, () => resolve()));
    // The zip's compression runs on libuv's threads: a turn of the loop lets it take the rows made so far.
    await new Promise(setImmediate);
    if (csv.rows() >= rows) break;
  }
  await new Promise<void>((resolve) => records.on('end', () => resolve()).end());
  sheet.commit();
  await book.commit();
  await closed;
  return hash.digest('hex');
}

/** A temporary folder and database (SQLite in it, or a throw-away PostgreSQL server's), removed after `run`. */
async function inBenchFolder(postgres: boolean, run: (dir: string, db: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-bench-uploads-'));
  const pgServer = postgres ? ((await startPgServer()) as { url: string; stop(): void }) : undefined;
  try {
    let db = path.join(dir, 'bench.db');
    if (pgServer) {
      const admin = await pgScratch(`${pgServer.url}/postgres`, false);
      await admin.query('CREATE DATABASE importd_uploads');
      await admin.end();
      db = `${pgServer.url}/importd_uploads`;
    }
    await run(dir, db);
  } finally {
    pgServer?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `source` sent with tus-js-client through two cut connections to a server of its own (files in `dir`), waited
 * for until it is an import, whose CSV export is then read and compared with `sha256`: the wall time until the
 * import, the file's size, and the RSS figures to record.
 */
async function uploadToImport(record: Record, dir: string, db: string, source: string, sha256: string, serverEnv: { [name: string]: string }) {
  const size = statSync(source).size;
  runBin(['migrate', '--db', db]);
  const env = JSON.parse(runBin(['env', 'create', 'bench', '--json', '--db', db]).stdout);
  // An XLSX's rows are several times its size.
  const limits = { IMPORTD_MAX_IMPORT_BYTES: String(20 * size), IMPORTD_FILES_DIR: path.join(dir, 'files') };
  const server = await startServe(db, { ...serverEnv, ...limits });
  const api: Api = { url: server.url, key: env.secretKey.key };
  try {
    await request(api, 'POST', '/v1/templates', JSON.stringify({ key: 'bench-upload', schema: { columns: CONTACT_COLUMNS } }));
    const rss = rssSampler(server.child.pid!);
    const started = performance.now();
    const url = await tusUploadWithCuts(api.url, () => createReadStream(source), size, CUTS, {
      headers: { Authorization: `Bearer ${api.key}` },
      metadata: { filename: path.basename(source), templateKey: 'bench-upload' },
    });
    const receiving = rss.next();
    const importId = await settled(api, url);
    const ms = performance.now() - started;
    const processing = rss.next();
    const identical = (await exportSha256(api, importId)) === sha256;
    const exporting = rss.next();
    rss.stop();
    const peak = peakRssMiB(server.child.pid!);
    const report = (label: string) => {
      record(`${label}  its export byte-identical to the source's rows (1 = yes)`, identical ? 1 : 0, '', undefined, '= 1');
      record(`${label}  server peak RSS`, peak, 'MiB', undefined, '< 300 MiB');
      for (const [phase, mib] of [['receiving', receiving], ['processing', processing], ['exporting', exporting]] as const) record(`${label}  server's largest RSS seen ${phase}`, mib, 'MiB');
      if (!identical) throw new Error("the export differs from the source's rows");
    };
    return { ms, size, report };
  } catch (error) {
    console.error(`server output (last 4000 characters):\n${server.output().slice(-4000)}`);
    throw error;
  } finally {
    await server.stop();
  }
}
