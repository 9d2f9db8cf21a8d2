// POST /imports wall time for several builds of importd and the raw floor (bench/floors.ts), measured
// round-robin (same moment, same machine load): the A/B tool for the ingest path.
// Run: npx tsx bench/ingest-ab.ts [--rows 10000] [--rounds 11] [--ndjson] [--spaced] [--pg] BUNDLE... (e.g. a copy of build/ and build/importd.cjs);
// --spaced: every row written with a space after each colon and comma (what JSON.stringify would not write: each
// row then takes the general path, JSON.parse and JSON.stringify);
// --pg: every build on its own database of one throw-away PostgreSQL server, against bench/pg-floors.ts's raw COPY there;
// AB_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles every server (its threads too).
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { importBody, makeRows, META, ORIGINAL_SCHEMA } from './data';
import { ingestFloor, ndjsonFloor, scratch } from './floors';
import { cpuMs, median, runBundle, startBundle } from './http';
import { copyFloor, pgScratch } from './pg-floors';
// @ts-expect-error: a plain ES module of the scripts, without types
import { startPgServer } from '../scripts/pg-server.mjs';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at < 0 ? fallback : args.splice(at, 2)[1]!;
};
const flag = (name: string) => args.includes(`--${name}`) && Boolean(args.splice(args.indexOf(`--${name}`), 1));
if (flag('help')) {
  console.log('npx tsx bench/ingest-ab.ts [--rows 10000] [--rounds 11] [--ndjson] [--spaced] [--pg] BUNDLE...');
  process.exit(0);
}
const ndjson = flag('ndjson');
const spaced = flag('spaced');
const postgres = flag('pg');
const rows = Number(option('rows', '10000'));
const rounds = Number(option('rounds', '11'));
const bundles = args.length > 0 ? args : ['build/importd.cjs'];

/** A row's JSON text, spaced out with --spaced (the bench's cells hold no `":` or `,"` to be spaced too). */
const rowText = (row: object) => (spaced ? JSON.stringify(row).replace(/":/g, '": ').replace(/,"/g, ', "') : JSON.stringify(row));

/** The rows as NDJSON: the first line, then chunks of 10 000 rows (as bench/run.ts streams them). */
function ndjsonChunks(count: number): Buffer[] {
  const chunks = [Buffer.from(`${JSON.stringify({ meta: META, originalSchema: ORIGINAL_SCHEMA })}\n`)];
  for (let first = 0; first < count; first += 10_000) {
    chunks.push(Buffer.from(`${makeRows(Math.min(10_000, count - first), first).map(rowText).join('\n')}\n`));
  }
  return chunks;
}

/**
 * One POST of a prebuilt body over a fresh connection, until the response's last byte: a JSON body with its
 * Content-Length, or NDJSON chunks streamed as they are taken.
 */
function post(url: string, key: string, body: Buffer | Buffer[]): Promise<number> {
  const started = performance.now();
  const headers = Array.isArray(body)
    ? { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-ndjson' }
    : { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Content-Length': body.byteLength };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}/v1/imports`,
      { method: 'POST', agent: false, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => (res.statusCode === 201 ? resolve(performance.now() - started) : reject(new Error(`${res.statusCode} ${Buffer.concat(chunks)}`))));
      },
    );
    req.on('error', reject);
    if (!Array.isArray(body)) req.end(body);
    else void Readable.from(body).pipe(req);
  });
}

(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-ingest-ab-'));
  const jsonBytes = Buffer.from(spaced ? `{"rows":[${makeRows(rows).map(rowText).join(',')}],"meta":${JSON.stringify(META)},"originalSchema":${JSON.stringify(ORIGINAL_SCHEMA)}}` : importBody(rows));
  const body = ndjson ? ndjsonChunks(rows) : jsonBytes;
  const pgServer = postgres ? ((await startPgServer()) as { url: string; stop(): void }) : undefined;
  const admin = pgServer && (await pgScratch(`${pgServer.url}/postgres`, false));
  const database = async (name: string) => {
    if (!admin) return path.join(dir, `${name}.db`);
    await admin.query(`CREATE DATABASE ${name.replace('-', '_')}`);
    return `${pgServer!.url}/${name.replace('-', '_')}`;
  };
  const floor = admin ? await pgScratch(await database('floor')) : scratch();
  // A database per build: each one's WAL and file growth are its own.
  const servers = [];
  for (const [i, bundle] of bundles.entries()) {
    const db = await database(`ab-${i}`);
    runBundle(bundle, ['migrate', '--db', db]);
    const key = JSON.parse(runBundle(bundle, ['env', 'create', 'bench', '--json', '--db', db])).secretKey.key as string;
    servers.push({ ...(await startBundle(bundle, db, process.env.AB_NODE_ARGS?.split(' '))), key });
  }
  const times: number[][] = [[], ...bundles.map(() => [])];
  const cpu: number[] = bundles.map(() => 0);
  const mainCpu: number[] = bundles.map(() => 0);
  try {
    // Warm-up: the first POST of each server prepares its statements and starts its worker.
    for (const server of servers) await post(server.url, server.key, body);
    for (let r = 0; r < rounds; r++) {
      if ('db' in floor) times[0]!.push(Array.isArray(body) ? ndjsonFloor(floor, body.slice(1), `floor-${r}`) : ingestFloor(floor, body, `floor-${r}`));
      else times[0]!.push(await copyFloor(floor, jsonBytes, `floor-${r}`));
      for (const [i, server] of servers.entries()) {
        const before = cpuMs(server.pid);
        const mainBefore = cpuMs(server.pid, server.pid);
        times[i + 1]!.push(await post(server.url, server.key, body));
        cpu[i]! += cpuMs(server.pid) - before;
        mainCpu[i]! += cpuMs(server.pid, server.pid) - mainBefore;
      }
    }
  } finally {
    for (const server of servers) server.stop();
    if ('db' in floor) floor.close();
    else await floor.end();
    await admin?.end();
    pgServer?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`POST /imports ${rows} rows${ndjson ? ' as NDJSON' : ''}${spaced ? ', spaced out' : ''}${postgres ? ' on PostgreSQL' : ''}, ${rounds} rounds, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const [i, name] of ['floor', ...bundles].entries()) {
    // The median of each round's own ratio too: on a shared machine the floor and the builds move together.
    const perRound = median(times[i]!.map((t, r) => t / times[0]![r]!));
    const ratio = i === 0 ? '' : `  ratio ${(median(times[i]!) / median(times[0]!)).toFixed(2)} (per round ${perRound.toFixed(2)}), server CPU ${(cpu[i - 1]! / rounds).toFixed(0)} ms per import (request thread ${(mainCpu[i - 1]! / rounds).toFixed(0)})`;
    console.log(`${name.padEnd(36)} median ${median(times[i]!).toFixed(1).padStart(7)} ms (${times[i]!.map((v) => v.toFixed(0)).join(' ')})${ratio}`);
  }
  process.exit(0);
})();
