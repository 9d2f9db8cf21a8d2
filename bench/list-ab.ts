// The list walk (GET /v1/imports?limit=100, page after page, one request at a time, as bench/run.ts and bench/pg.ts
// walk it) for several builds of importd on ONE database of 10 000 seeded imports, interleaved round by round with
// one raw keyset page of 101 read warm between them: the A/B tool for the list path.
// Run: npx tsx bench/list-ab.ts [--rounds 5] [--pg] BUNDLE... (e.g. a copy of build/ and build/importd.cjs);
// --pg: a throw-away PostgreSQL server (bench/pg-floors.ts's floor); AB_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR' profiles the servers.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { runBin } from '../test/helpers/process';
import { importBody } from './data';
import { median, startBundle, walkListPages } from './http';
import { listPageKeysetFloor, pgScratch } from './pg-floors';
import { seedImports, seedPgImports } from './seed-imports';
// @ts-expect-error: a plain ES module of the scripts, without types
import { startPgServer } from '../scripts/pg-server.mjs';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`) && Boolean(args.splice(args.indexOf(`--${name}`), 1));
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt < 0 ? 5 : Number(args.splice(roundsAt, 2)[1]);
const postgres = flag('pg');
const bundles = args.length > 0 ? args : ['build/importd.cjs'];
const IMPORTS = 10_000;
async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-list-ab-'));
  const pgServer = postgres ? await startPgServer() : undefined;
  if (pgServer) {
    const admin = await pgScratch(`${pgServer.url}/postgres`);
    await admin.query('CREATE DATABASE list_ab');
    await admin.end();
  }
  const db = pgServer ? `${pgServer.url}/list_ab` : path.join(dir, 'list.db');
  runBin(['migrate', '--db', db]);
  const key = JSON.parse(runBin(['env', 'create', 'bench', '--json', '--db', db]).stdout).secretKey.key as string;
  const nodeArgs = process.env.AB_NODE_ARGS ? process.env.AB_NODE_ARGS.split(' ') : [];
  const servers = await Promise.all(bundles.map((bundle) => startBundle(bundle, db, nodeArgs)));
  const created = await fetch(`${servers[0]!.url}/v1/imports`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: importBody(10),
  });
  const { templateId } = (await created.json()) as { templateId: string };
  const floor = pgServer ? await pgFloor(db, templateId) : sqliteFloor(db, templateId);
  const floors: number[] = [];
  const walks = bundles.map(() => ({ first: [] as number[], deep: [] as number[] }));
  for (let round = 0; round < rounds; round++) {
    floors.push(await floor.page());
    for (const [i, server] of servers.entries()) {
      const { first, deep } = await walkListPages({ url: server.url, key });
      walks[i]!.first.push(...first);
      walks[i]!.deep.push(...deep);
    }
  }
  const floorMs = median(floors);
  console.log(`${postgres ? 'PostgreSQL' : 'SQLite'}, load average ${loadavg()[0]!.toFixed(2)}; floor (one raw page of 101) ${floorMs.toFixed(3)} ms`);
  for (const [i, bundle] of bundles.entries()) {
    const first = median(walks[i]!.first);
    const deep = median(walks[i]!.deep);
    console.log(`${bundle}: first pages ${first.toFixed(3)} ms (${(first / floorMs).toFixed(2)}x), deep pages ${deep.toFixed(3)} ms (${(deep / floorMs).toFixed(2)}x)`);
  }
  for (const server of servers) server.stop();
  await floor.close();
  // Let the servers write their profiles before their database goes.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  pgServer?.stop();
  rmSync(dir, { recursive: true, force: true });
}

async function pgFloor(db: string, templateId: string) {
  const pool = await pgScratch(db);
  const account = await seedPgImports(pool, templateId, IMPORTS);
  return { page: () => listPageKeysetFloor(pool, account, 200), close: () => pool.end() };
}

function sqliteFloor(file: string, templateId: string) {
  const sqlite = new Database(file);
  const account = seedImports(sqlite, templateId, IMPORTS);
  const page = sqlite.prepare(
    "SELECT * FROM imports WHERE account_id = ? AND status = 'complete' AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT 101",
  );
  return {
    page: async () => {
      const started = performance.now();
      for (let r = 0; r < 200; r++) page.all(account, '2025-01-01T02:00:00.000Z', 'z');
      return (performance.now() - started) / 200;
    },
    close: async () => void sqlite.close(),
  };
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
