// Server CPU per request of the authenticated reads, for several builds of importd and a bare Hono route
// sending the same bytes (headers included, answerOf), measured round-robin (same moment, same machine load) under autocannon.
// Run: npx tsx bench/read-ab.ts [--rounds 5] [--seconds 3] [--kinds healthz,detail,rows,list] [--imports N] [--rows N] BUNDLE... (e.g. build/importd.cjs)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { runBin } from '../test/helpers/process';
import { importBody } from './data';
import { seedImports } from './seed-imports';
import { answerOf, cpuMs, median, startBareHono, startBundle } from './http';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at < 0 ? fallback : args.splice(at, 2)[1]!;
};
const rounds = Number(option('rounds', '5'));
const seconds = Number(option('seconds', '3'));
const kinds = option('kinds', 'detail,rows,list').split(',');
// More complete imports in the account, for the list page (its `total` counts them all).
const imports = Number(option('imports', '0'));
// Rows of the import whose detail and rows page are read (npm run bench reads a 100 000-row import's).
const rows = Number(option('rows', '1000'));
const bundles = args.length > 0 ? args : ['build/importd.cjs'];

async function load(url: string, headers: Record<string, string>, pid: number) {
  const before = cpuMs(pid);
  const result = await autocannon({ url, headers, connections: 10, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, cpu: ((cpuMs(pid) - before) * 1000) / result.requests.total };
}

(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-ab-'));
  const db = path.join(dir, 'ab.db');
  runBin(['migrate', '--db', db]);
  const key = JSON.parse(runBin(['env', 'create', 'bench', '--json', '--db', db]).stdout).secretKey.key as string;
  const headers = { Authorization: `Bearer ${key}` };
  const servers = await Promise.all(bundles.map((bundle) => startBundle(bundle, db)));
  const created = (await (await fetch(`${servers[0]!.url}/v1/imports`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: importBody(rows) })).json()) as { id: string; templateId: string };
  // A large body is stored on the parse worker's time: the reads wait until the import is complete.
  while ((await fetch(`${servers[0]!.url}/v1/imports/${created.id}`, { headers })).status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  if (imports > 0) {
    const seeding = new Database(db);
    seedImports(seeding, created.templateId, imports);
    seeding.close();
  }
  const paths: Record<string, string> = { healthz: '/healthz', detail: `/v1/imports/${created.id}`, rows: `/v1/imports/${created.id}/rows?limit=100`, list: '/v1/imports?limit=100' };
  try {
    for (const kind of kinds) {
      const answer = await answerOf({ url: servers[0]!.url, key }, paths[kind]!);
      const bare = await startBareHono(answer.payload, answer.headers);
      const cpu: number[][] = [[], ...bundles.map(() => [])];
      const rps: number[][] = [[], ...bundles.map(() => [])];
      for (let r = 0; r < rounds; r++) {
        const base = await load(bare.url, headers, bare.pid);
        cpu[0]!.push(base.cpu);
        rps[0]!.push(base.rps);
        for (const [i, server] of servers.entries()) {
          const served = await load(`${server.url}${paths[kind]}`, headers, server.pid);
          cpu[i + 1]!.push(served.cpu);
          rps[i + 1]!.push(served.rps);
        }
      }
      bare.stop();
      for (const [i, name] of ['bare Hono', ...bundles].entries()) {
        const ratio = i === 0 ? '' : `  CPU ${(median(cpu[i]!) / median(cpu[0]!)).toFixed(2)}x bare, req/s ${(median(rps[i]!) / median(rps[0]!)).toFixed(2)}x`;
        console.log(`${kind.padEnd(7)} ${name.padEnd(32)} ${median(cpu[i]!).toFixed(0).padStart(5)} µs/request (${cpu[i]!.map((v) => v.toFixed(0)).join(' ')}), ${median(rps[i]!).toFixed(0)} req/s${ratio}`);
      }
    }
  } finally {
    for (const server of servers) server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
})();
