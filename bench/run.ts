// npm run bench: the real server against raw better-sqlite3 floors measured in the same run.
// Options: --quick (smaller sizes, for a smoke run), --big (adds the 1M-row NDJSON import and export),
// --pg (the same ingest, export and row-page figures on a throw-away PostgreSQL server instead, bench/pg.ts),
// --rules (only the cost of a template's rules, bench/validation.ts; with --pg, on PostgreSQL), --rules-cpu (only
// where the rules' CPU goes per row, in-process and without a server, bench/rules-cpu.ts), --datasets (only
// the cost of applying an import to a keyed template's dataset of 1M records, bench/datasets.ts; with --pg too),
// --uploads (only a 1 GiB CSV upload-to-import through two cut connections, bench/uploads.ts; --uploads-mb N
// for another size, --quick 30 MB; with --pg, on PostgreSQL; --xlsx: a 200 MB XLSX workbook instead).
// Last, the review grid of the browser importer at 1M rows (bench/review-grid.ts; 100 000 with --quick; --grid:
// only that).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { runBin, startServe } from '../test/helpers/process';
import { importBody, makeRows, META, ORIGINAL_SCHEMA, postRuns } from './data';
import { seedImports } from './seed-imports';
import { csvFloor, ingestFloor, iterateParseFloor, ndjsonFloor, rowsPageFloor, scratch, time } from './floors';
import { watchMachine } from './machine';
import { benchPostgres } from './pg';
import { createBenchTemplates, RULES_PAIRS, typedRows, validationCost } from './validation';
import { rulesCpu } from './rules-cpu';
import { benchReviewGrid } from './review-grid';
import { benchUploads, benchXlsxUpload } from './uploads';
import { datasetApplyCost, sqliteSeeder } from './datasets';
import { alternatedLoads, answerOf, drained, median, peakRssMiB, request, recordListWalks, rowsPageStartEnd, serveImports, startBareHono, startReader, timed, walkListWarm, type Api } from './http';

const quick = process.argv.includes('--quick');
const big = process.argv.includes('--big');
const postgres = process.argv.includes('--pg');
const rulesOnly = process.argv.includes('--rules');
const rulesCpuOnly = process.argv.includes('--rules-cpu');
const gridOnly = process.argv.includes('--grid');
const uploads = process.argv.includes('--uploads');
const uploadsMb = process.argv.indexOf('--uploads-mb');
const xlsx = process.argv.includes('--xlsx');
const UPLOAD_BYTES = uploadsMb > 0 ? Number(process.argv[uploadsMb + 1]) * 1e6 : quick ? 30e6 : xlsx ? 200e6 : 1024 ** 3;
const datasetsOnly = process.argv.includes('--datasets');
const DATASET_SIZES = quick ? { seed: 100_000, rows: 10_000 } : { seed: 1_000_000, rows: 100_000 };
const LARGE = quick ? 20_000 : 100_000;
const SMALL = quick ? 2_000 : 10_000;
const LIST = quick ? 2_000 : 10_000;
const LOAD_SECONDS = quick ? 2 : 3;
const LOAD_ROUNDS = quick ? 1 : 5;

interface Result {
  name: string;
  value: number;
  unit: string;
  floor?: number;
  ratio?: number;
  target?: string;
}
const results: Result[] = [];
const record = (name: string, value: number, unit: string, floor?: number, target?: string) => {
  const entry: Result = { name, value: round(value), unit, ...(floor !== undefined && { floor: round(floor), ratio: round(value / floor) }), ...(target && { target }) };
  results.push(entry);
  console.log(`${name.padEnd(48)} ${String(entry.value).padStart(10)} ${unit.padEnd(6)} ${entry.floor !== undefined ? `floor ${entry.floor} ratio ${entry.ratio}` : ''} ${target ?? ''}`);
};
const round = (n: number) => Math.round(n * 100) / 100;
// The import bodies the server took before its reads are measured, for their floor to take too (serveImports).
const importsTaken: (string | Uint8Array)[] = [];
const timedImport = (api: Api, body: string | Uint8Array) => {
  importsTaken.push(body);
  return timed(api, 'POST', '/v1/imports', body);
};

const machine = watchMachine();

async function main() {
  if (rulesCpuOnly) {
    await rulesCpu(record, LARGE);
    writeResults('latest-rules-cpu.json');
    return;
  }
  if (gridOnly) {
    await benchReviewGrid(record, quick ? 100_000 : 1_000_000);
    writeResults('latest-grid.json');
    return;
  }
  if (uploads && xlsx) {
    await benchXlsxUpload(record, UPLOAD_BYTES, postgres, SERVER_ENV);
    writeResults(postgres ? 'latest-uploads-xlsx-pg.json' : 'latest-uploads-xlsx.json');
    return;
  }
  if (uploads) {
    await benchUploads(record, UPLOAD_BYTES, postgres, SERVER_ENV);
    writeResults(postgres ? 'latest-uploads-pg.json' : 'latest-uploads.json');
    return;
  }
  if (postgres) {
    await benchPostgres(record, { LARGE, SMALL, LIST, DATASETS: DATASET_SIZES }, SERVER_ENV, rulesOnly ? 'rules' : datasetsOnly ? 'datasets' : undefined);
    writeResults(datasetsOnly ? 'latest-datasets-pg.json' : 'latest-pg.json');
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-bench-'));
  if (datasetsOnly) {
    await datasetsRun(path.join(dir, 'datasets.db'));
    writeResults('latest-datasets.json');
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  const db = path.join(dir, 'bench.db');
  runBin(['migrate', '--db', db]);
  const env = JSON.parse(runBin(['env', 'create', 'bench', '--json', '--db', db]).stdout);
  const hooked = JSON.parse(runBin(['env', 'create', 'bench-hooked', '--json', '--db', db]).stdout);
  const server = await startServe(db, SERVER_ENV);
  const api: Api = { url: server.url, key: env.secretKey.key };
  const floor = scratch();
  try {
    await createBenchTemplates(api);
    await validationCost(record, api, LARGE, RULES_PAIRS, server.child.pid!);
    if (!rulesOnly) {
      await ingest(api, floor);
      await webhookCost(api, { url: server.url, key: hooked.secretKey.key });
      const largeId = await exports(api, floor);
      await rowsPages(api, floor, largeId);
      await listPages(api, db);
      await underLoad(api, largeId, server.child.pid!, db);
      await stallDuringWrite(api);
      record('server peak RSS over the run above', peakRssMiB(server.child.pid!), 'MiB');
    }
  } catch (error) {
    console.error(`server output (last 4000 characters):\n${server.output().slice(-4000)}\nserver exit code: ${server.child.exitCode}`);
    throw error;
  } finally {
    floor.close();
    await server.stop();
  }
  if (big && !rulesOnly) await bigImport(dir);
  if (big) await bigTypedImport(dir);
  if (!rulesOnly) await benchReviewGrid(record, quick ? 100_000 : 1_000_000);
  writeResults('latest.json');
  rmSync(dir, { recursive: true, force: true });
}

function writeResults(name: string) {
  record('machine: load average (1 min) at the start', machine.loadAtStart, '');
  const stolen = machine.stolenPercent();
  if (stolen !== undefined) record('machine: CPU time taken by the hypervisor over the run', stolen, '%');
  mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  const file = path.join(__dirname, 'results', name);
  writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, quick, big, postgres, results }, null, 2)}\n`);
  console.log(`\nwritten to ${path.relative(process.cwd(), file)}`);
}

async function ingest(api: Api, floor: ReturnType<typeof scratch>) {
  for (const count of [SMALL, LARGE]) {
    // Bytes built once: the client's own encoding is not in the figure.
    const body = Buffer.from(importBody(count));
    // Steady state: the server's first import creates the template and compiles the ingest path.
    if (count === SMALL) await timedImport(api, body);
    const runs = postRuns(count, LARGE);
    const served: number[] = [];
    const raw: number[] = [];
    for (let r = 0; r < runs; r++) {
      served.push((await timedImport(api, body)).ms);
      raw.push(ingestFloor(floor, body, `floor-${count}-${r}`));
    }
    record(`POST /imports ${count} rows`, median(served), 'ms', median(raw), count === LARGE ? 'ratio <= 1.2' : 'ratio <= 1.3');
  }
}

/**
 * What a registered webhook adds to an import: the same 10 000-row POST into an environment without an
 * endpoint and into one with an endpoint (a local receiver answering 200), in turns (ABBA: neither always runs
 * first); the ratio should be 1 within noise. Each import starts once the receiver has the last event, so that
 * neither import pays for the delivery the server sends meanwhile. The figure is the median of the twenty pairs'
 * own ratios (each pair's two imports one after the other): one 10 000-row POST here takes 67-211 ms from one
 * moment to the next, in phases of seconds, and the ratio of the two sides' medians moved with the phases (twenty
 * pairs of one server 0.86, the same pairs' own ratios 0.97); the medians are printed too.
 */
async function webhookCost(plain: Api, hooked: Api) {
  let delivered = 0;
  const receiver = createServer((req, res) => {
    req.resume().on('end', () => {
      delivered++;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const registered = await request(hooked, 'POST', '/v1/webhooks', JSON.stringify({ url: hookUrl }));
  if (registered.status !== 201) throw new Error(`webhook not registered: ${registered.status} ${await registered.text()}`);
  const body = importBody(SMALL);
  const without: number[] = [];
  const withHook: number[] = [];
  const deliveredBy = async (count: number) => {
    const deadline = Date.now() + 10_000;
    while (delivered < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  for (let r = 0; r < 20; r++) {
    for (const hook of r % 2 === 0 ? [false, true] : [true, false]) {
      if (hook) withHook.push((await timedImport(hooked, body)).ms);
      else without.push((await timedImport(plain, body)).ms);
      await deliveredBy(withHook.length);
    }
  }
  record(`POST /imports ${SMALL} rows, webhook registered`, median(withHook), 'ms', median(without));
  record('  with / without a webhook, median of the pairs', median(withHook.map((ms, r) => ms / without[r]!)), 'x', undefined, '<= 1.1');
  record(`  webhooks delivered of ${withHook.length} imports`, delivered, 'events');
  receiver.close();
}

async function exports(api: Api, floor: ReturnType<typeof scratch>): Promise<string> {
  const created = JSON.parse((await timedImport(api, importBody(LARGE))).text);
  const columns = ORIGINAL_SCHEMA.fields.map((f) => f.key);
  const floorId = `floor-${LARGE}-0`;
  const csv: number[] = [];
  const ndjson: number[] = [];
  const csvRaw: number[] = [];
  const parseRaw: number[] = [];
  for (let r = 0; r < 5; r++) {
    csv.push((await drained(api, `/v1/imports/${created.id}/export?format=csv`)).ms);
    ndjson.push((await drained(api, `/v1/imports/${created.id}/export?format=ndjson`)).ms);
    csvRaw.push(csvFloor(floor, floorId, columns));
    parseRaw.push(iterateParseFloor(floor, floorId));
  }
  record(`export csv ${LARGE} rows`, median(csv), 'ms', median(csvRaw), 'ratio <= 1.3');
  record(`export ndjson ${LARGE} rows`, median(ndjson), 'ms', median(parseRaw), 'ratio < 1 (faster than parse)');
  return created.id as string;
}

async function rowsPages(api: Api, floor: ReturnType<typeof scratch>, importId: string) {
  const { start, end } = await rowsPageStartEnd(api, importId);
  record('rows page (100) at the start', start, 'ms', rowsPageFloor(floor, `floor-${LARGE}-0`, -1, 200));
  record(`rows page (100) at the end of ${LARGE}`, end, 'ms', rowsPageFloor(floor, `floor-${LARGE}-0`, LARGE - 101, 200));
  record('rows page end / start', end / start, 'x', undefined, '<= 1.3');
}

async function listPages(api: Api, dbPath: string) {
  const templateId = JSON.parse((await timed(api, 'GET', '/v1/imports?limit=1')).text).data[0].templateId as string;
  const db = new Database(dbPath);
  const account = seedImports(db, templateId, LIST);
  const pageFloor = db.prepare<unknown[], { created_at: string; id: string }>(
    "SELECT * FROM imports WHERE account_id = ? AND status = 'complete' AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT 20",
  );
  // Five raw pages of 20, a page of 100, walked as importd's walk reads it: the first from the top, each next one
  // after the previous one's last row, so that each of importd's pages is timed beside the same rows.
  let after = ['9999', ''];
  const floorPage = (page: number) => {
    if (page === 0) after = ['9999', ''];
    return time(() => {
      for (let r = 0; r < 5; r++) {
        const rows = pageFloor.all(account, ...after);
        const last = rows.at(-1);
        after = last ? [last.created_at, last.id] : ['9999', ''];
      }
    });
  };
  for (let r = 0; r < 200; r++) floorPage(r % 100);
  const walks = await walkListWarm(api, floorPage);
  db.close();
  recordListWalks(record, `list page (100) of ${LIST} imports`, walks);
}

/**
 * The hot reads under load, against a bare Hono route sending the same bytes. A Node process that has served
 * large POST bodies serves small reads 1.2-1.35x slower than a fresh one, a bare Hono route as much as importd
 * (docs/performance.md, "Twelfth round"), so the target compares like with like: a fresh `importd serve` on the
 * bench's database with a fresh floor. The bench's own server, which took the run's imports, is measured in
 * the same rounds, against the fresh floor and against a floor that took the same imports (serveImports).
 */
async function underLoad(api: Api, importId: string, serverPid: number, db: string) {
  const headers = { Authorization: `Bearer ${api.key}` };
  const freshServer = await startServe(db, SERVER_ENV);
  try {
    for (const [name, target] of [
      ['GET /imports/{id}', `/v1/imports/${importId}`],
      ['GET /imports/{id}/rows (100)', `/v1/imports/${importId}/rows?limit=100`],
    ] as const) {
      const answer = await answerOf(api, target);
      const bare = await startBareHono(answer.payload, answer.headers);
      const taken = await startBareHono(answer.payload, answer.headers);
      await serveImports(taken.url, importsTaken);
      try {
        const {
          floors: [floor, takenFloor],
          served: [fresh, longLived],
        } = await alternatedLoads(
          [bare, taken],
          [
            { url: `${freshServer.url}${target}`, headers, pid: freshServer.child.pid! },
            { url: `${api.url}${target}`, headers, pid: serverPid },
          ],
          LOAD_ROUNDS,
          LOAD_SECONDS,
        );
        record(`${name} under load: req/s`, fresh!.requestsPerSecond, 'req/s', floor!.requestsPerSecond, 'ratio >= 0.15');
        record(`${name} under load: p99`, fresh!.p99Ms, 'ms', floor!.p99Ms);
        // Read as the floor's share: the bare route's CPU per request over importd's (>= 0.5 means at most twice).
        record(`${name} under load: server CPU per request`, fresh!.cpuMicros, 'µs', floor!.cpuMicros, 'ratio <= 2');
        record(`  the bench's server (after the run's imports): req/s`, longLived!.requestsPerSecond, 'req/s', floor!.requestsPerSecond);
        record(`  the bench's server (after the run's imports): server CPU per request`, longLived!.cpuMicros, 'µs', floor!.cpuMicros);
        record(`  the bench's server against a floor that took the same imports: server CPU per request`, longLived!.cpuMicros, 'µs', takenFloor!.cpuMicros);
      } finally {
        bare.stop();
        taken.stop();
      }
    }
  } finally {
    await freshServer.stop();
  }
}

async function stallDuringWrite(api: Api) {
  const small = JSON.parse((await timed(api, 'POST', '/v1/imports', importBody(1))).text).id as string;
  const body = Buffer.from(importBody(LARGE));
  const reader = await startReader(api, `/v1/imports/${small}`);
  await request(api, 'POST', '/v1/imports', body);
  const { worst, reads } = await reader.stop();
  record(`worst small read during a ${LARGE}-row import (${reads} reads)`, worst, 'ms', undefined, '< 50 ms');
}

/** A 1M-row NDJSON import and its CSV export, on a server of their own so its peak RSS is theirs alone. */
async function bigImport(dir: string) {
  const { server, api } = await ownServer(path.join(dir, 'big.db'));
  try {
    const rows = 1_000_000;
    const started = performance.now();
    const { id } = await postNdjsonRows(api, { meta: META, originalSchema: ORIGINAL_SCHEMA }, rows, makeRows);
    const served = performance.now() - started;
    const floor = scratch();
    function* ndjsonChunks() {
      for (let first = 0; first < rows; first += 10_000) yield Buffer.from(`${makeRows(10_000, first).map((row) => JSON.stringify(row)).join('\n')}\n`);
    }
    // The floor's rows are generated inside its timing as the server's are sent: both pay the generation.
    const raw = ndjsonFloor(floor, ndjsonChunks(), 'floor-1m');
    floor.close();
    record('POST /imports 1M rows as NDJSON', served, 'ms', raw, 'ratio <= 1.6');
    record('server peak RSS after the 1M-row NDJSON import', peakRssMiB(server.child.pid!), 'MiB', undefined, '< 250 MiB');
    const exported = await drained(api, `/v1/imports/${id}/export?format=csv`);
    record(`export csv 1M rows (${(exported.bytes / 1e6).toFixed(0)} MB)`, exported.ms, 'ms');
    record('server peak RSS after the 1M-row export', peakRssMiB(server.child.pid!), 'MiB', undefined, '< 250 MiB');
  } finally {
    await server.stop();
  }
}

/** The 1M-row NDJSON import into the template of ten typed fields (bench/validation.ts), on a server of its own. */
async function bigTypedImport(dir: string) {
  const { server, api } = await ownServer(path.join(dir, 'big-typed.db'));
  try {
    await createBenchTemplates(api);
    const started = performance.now();
    const created = await postNdjsonRows(api, { meta: { schemaKey: 'bench-typed' } }, 1_000_000, typedRows);
    const served = performance.now() - started;
    if (created.meta.counts?.validRows !== 1_000_000) throw new Error(`typed 1M import: ${JSON.stringify(created.meta.counts)}`);
    record('POST /imports 1M rows as NDJSON, 10 typed fields', served, 'ms');
    record('server peak RSS after the typed 1M-row NDJSON import', peakRssMiB(server.child.pid!), 'MiB', undefined, '< 250 MiB');
  } finally {
    await server.stop();
  }
}

/** The dataset apply's cost (bench/datasets.ts) on a server of its own. */
async function datasetsRun(db: string) {
  const { server, api } = await ownServer(db);
  try {
    await datasetApplyCost(record, api, server.child.pid!, sqliteSeeder(db), DATASET_SIZES);
  } finally {
    await server.stop();
  }
}

/** A server of its own on a new database `db`, with an environment. */
async function ownServer(db: string) {
  runBin(['migrate', '--db', db]);
  const env = JSON.parse(runBin(['env', 'create', 'big', '--json', '--db', db]).stdout);
  const server = await startServe(db, SERVER_ENV);
  return { server, api: { url: server.url, key: env.secretKey.key } as Api };
}

/** Streams `count` rows (generated 10 000 at a time) as NDJSON after its `head` line; the created import. */
async function postNdjsonRows(api: Api, head: object, count: number, rowsFrom: (count: number, first: number) => object[]) {
  async function* lines() {
    yield Buffer.from(`${JSON.stringify(head)}\n`);
    for (let first = 0; first < count; first += 10_000) yield Buffer.from(`${rowsFrom(10_000, first).map((row) => JSON.stringify(row)).join('\n')}\n`);
  }
  const response = await fetch(`${api.url}/v1/imports`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${api.key}`, 'Content-Type': 'application/x-ndjson' },
    body: Readable.toWeb(Readable.from(lines())),
    duplex: 'half',
  } as RequestInit);
  if (response.status !== 201) throw new Error(`ndjson import: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; meta: { counts?: { validRows: number } } };
}

// The bench's webhook receiver is local: private addresses allowed.
const SERVER_ENV = { IMPORTD_LOG_LEVEL: 'warn', IMPORTD_RATE_LIMIT: '0', IMPORTD_WEBHOOK_ALLOW_PRIVATE: 'true', IMPORTD_ACCOUNT_RATE_LIMIT: '0' };

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
