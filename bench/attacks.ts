// npm run bench:attacks [-- --pg] [-- --only TEXT,...] [-- --cpu-prof FILE]: each attack of issues 12 and 41 against
// the real server (SQLite, or PostgreSQL on a throw-away server with --pg; --only runs the attacks whose name holds a
// TEXT; --cpu-prof writes the server's CPU profile to FILE), made with what a customer's web page exposes (its Public
// Key and one end-user session) or, for deletes, what its backend does, while ANOTHER account's small read is timed
// in a loop from a process of its own. Prints, per attack, what the server answered, how long the attack took, the
// slowest small read meanwhile (target < 250 ms) and the server's longest event-loop stall (bench/loop-stalls.cjs).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
// @ts-expect-error: a plain ES module of the scripts, without types
import { startPgServer } from '../scripts/pg-server.mjs';
import { runBin, startServe } from '../test/helpers/process';
import { FAN_OUT_ATTACKS, stopFanOutAttacks, type Attack, type Attacker } from './fan-out-attacks';
import { request, startReader, type Api } from './http';
import { MAPPING_ATTACKS } from './mapping-attacks';

const ORIGIN = 'https://shop.example.com';
// A lower import cap than the 1 GiB default, so the disk-cap attack runs in seconds; every other cap is the default.
// Webhooks may reach this process's receiver (the fan-out attack's deliveries are really sent).
const SERVER_ENV = { IMPORTD_LOG_LEVEL: 'warn', IMPORTD_RATE_LIMIT: '0', IMPORTD_MAX_IMPORT_BYTES: '64mb', IMPORTD_WEBHOOK_ALLOW_PRIVATE: 'true', IMPORTD_ACCOUNT_RATE_LIMIT: '0' };
const ON_PG = process.argv.includes('--pg');
const option = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
// Comma-separated parts of attack names: an attack runs when its name holds one of them.
const ONLY = option('--only')?.split(',') ?? [''];
const CPU_PROFILE = option('--cpu-prof');

/**
 * The server's event loop between `from` and `to` (epoch ms; bench/loop-stalls.cjs): its longest stall, how many
 * passed 50 ms, and its mean utilization.
 */
function loopBetween(file: string, from: number, to: number): { longest: number; over50: number; busy: number } {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .filter(([, at]) => Number(at) >= from && Number(at) <= to);
  const of = (kind: string) => lines.filter(([k]) => k === kind).map(([, , value]) => Number(value));
  const held = of('stall');
  const busy = of('busy');
  return { longest: Math.max(0, ...held), over50: held.filter((ms) => ms > 50).length, busy: busy.reduce((sum, b) => sum + b, 0) / Math.max(1, busy.length) };
}

/** The database the server runs on: a SQLite file in `dir`, or a fresh database on a throw-away PostgreSQL server. */
async function database(dir: string): Promise<{ db: string; stop(): void }> {
  if (!ON_PG) return { db: path.join(dir, 'attacks.db'), stop: () => undefined };
  const server = (await startPgServer()) as { url: string; stop(): void };
  const admin = new pg.Client({ connectionString: `${server.url}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE importd_attacks');
  await admin.end();
  return { db: `${server.url}/importd_attacks`, stop: () => server.stop() };
}

const results: { attack: string; answer: string; ms: number; worst: number; reads: number }[] = [];

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-attacks-'));
  const storage = await database(dir);
  const { db } = storage;
  runBin(['migrate', '--db', db]);
  const victimEnv = JSON.parse(runBin(['env', 'create', 'victim', '--json', '--db', db]).stdout);
  runBin(['account', 'create', 'attacked', '--db', db]);
  const attackedEnv = JSON.parse(runBin(['env', 'create', 'shop', '--origin', ORIGIN, '--auto-create-templates', '--account', 'attacked', '--json', '--db', db]).stdout);
  const otherEnv = JSON.parse(runBin(['env', 'create', 'shop-2', '--account', 'attacked', '--json', '--db', db]).stdout);
  const session = runBin(['session', 'issue', '--env', 'shop', '--end-user', 'eve', '--account', 'attacked', '--expires-in', '86400', '--db', db]).stdout.trim();
  const stalls = path.join(dir, 'stalls.txt');
  const server = await startServe(db, {
    ...SERVER_ENV,
    // Not ./data/files (PostgreSQL's default): the run's folder, removed with it.
    IMPORTD_FILES_DIR: path.join(dir, 'files'),
    NODE_OPTIONS: `--require=${path.resolve('bench/loop-stalls.cjs')}`,
    IMPORTD_BENCH_STALLS: stalls,
    ...(CPU_PROFILE && { IMPORTD_BENCH_CPU_PROFILE: path.resolve(CPU_PROFILE) }),
  });
  try {
    const victim: Api = { url: server.url, key: victimEnv.secretKey.key };
    const small = (await (await request(victim, 'POST', '/v1/imports', JSON.stringify({ meta: { schemaKey: 'small' }, rows: [{ a: 1 }] }))).json()) as { id: string };
    const attacker: Attacker = {
      url: server.url,
      publicKey: attackedEnv.publicKey.key,
      session,
      secretKey: attackedEnv.secretKey.key,
      victimKey: victim.key,
      origin: ORIGIN,
      otherEnvironmentKey: otherEnv.secretKey.key,
      db,
    };
    for (const { name, prepare, run } of [...ATTACKS, ...FAN_OUT_ATTACKS, ...MAPPING_ATTACKS].filter((attack) => ONLY.some((part) => attack.name.includes(part)))) {
      // What an attack needs stored beforehand is written before the timing starts.
      const prepared = prepare ? await prepare(attacker) : '';
      const reader = await startReader(victim, `/v1/imports/${small.id}`);
      const startedAt = Date.now();
      const started = performance.now();
      let answer: string;
      try {
        answer = await run(attacker, prepared);
      } catch (error) {
        answer = `failed: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`;
      }
      const ms = performance.now() - started;
      const { worst, reads } = await reader.stop();
      const loop = loopBetween(stalls, startedAt, Date.now());
      results.push({ attack: name, answer, ms: Math.round(ms), worst: Math.round(worst), reads });
      console.log(
        `${name.padEnd(64)} ${answer.padEnd(34)} ${String(Math.round(ms)).padStart(7)} ms   worst read ${Math.round(worst)} ms (${reads} reads)` +
          `   server loop ${Math.round(loop.busy * 100)} % busy, longest stall ${loop.longest} ms (${loop.over50} over 50 ms)`,
      );
      if ((await fetch(`${server.url}/healthz`).catch(() => undefined))?.status !== 200) throw new Error(`the server died during: ${name}`);
    }
  } finally {
    await server.stop();
    await stopFanOutAttacks();
    storage.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const worst = Math.max(...results.map((r) => r.worst));
  console.log(`\nslowest small read of another account over every attack (${ON_PG ? 'PostgreSQL' : 'SQLite'}): ${worst} ms (target < 250 ms); the server never exited`);
}

/** A request with the Public Key, the allowed Origin and the end-user's session, as the browser SDK sends it. */
async function sdk(a: Attacker, method: string, pathname: string, body?: string | ReadableStream<Uint8Array>, type = 'application/json'): Promise<Response> {
  return fetch(`${a.url}${pathname}`, {
    method,
    headers: { Authorization: `Bearer ${a.publicKey}`, Origin: ORIGIN, 'X-Session-Token': a.session, 'Content-Type': type },
    body,
    ...(body instanceof ReadableStream && { duplex: 'half' }),
  } as RequestInit);
}

/** The attacked customer's own backend (Secret Key) reading or deleting what was stored. */
async function backend(a: Attacker, method: string, pathname: string, body?: string): Promise<Response> {
  return fetch(`${a.url}${pathname}`, { method, headers: { Authorization: `Bearer ${a.secretKey}`, 'Content-Type': 'application/json' }, body });
}

async function answered(response: Response): Promise<string> {
  const text = await response.text();
  const code = response.status >= 400 ? ` ${(JSON.parse(text) as { error: { code: string } }).error.code}` : ` (${(text.length / 1e6).toFixed(1)} MB)`;
  return `${response.status}${code}`;
}

const stream = (pieces: () => Generator<string>) => Readable.toWeb(Readable.from(pieces())) as ReadableStream<Uint8Array>;
const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const fields = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `f${i}` }));

/** Stores an import through the SDK; returns its id (throws unless 201). */
async function stored(a: Attacker, body: string): Promise<string> {
  const response = await sdk(a, 'POST', '/v1/imports', body);
  if (response.status !== 201) throw new Error(`import: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

const rowsText = (n: number) => Array.from({ length: n }, (_, i) => `{"n":${i},"name":"person ${i}"}`).join(',');

const ATTACKS: Attack[] = [
  {
    name: 'crash: originalSchema of 100 000 keys, 2 000 rows',
    run: (a) => sdk(a, 'POST', '/v1/imports', JSON.stringify({ meta: { schemaKey: 'wide' }, originalSchema: { fields: fields(100_000) }, rows: Array.from({ length: 2000 }, () => ({ f1: 'x' })) })).then(answered),
  },
  {
    name: 'crash: HEAD + CSV export of the widest import allowed (2 000 x 2 000)',
    prepare: (a) => stored(a, JSON.stringify({ meta: { schemaKey: 'widest' }, originalSchema: { fields: fields(2000) }, rows: Array.from({ length: 2000 }, () => ({ f1999: 'x' })) })),
    run: async (a, id) => {
      await (await backend(a, 'HEAD', `/v1/imports/${id}/export`)).arrayBuffer();
      return answered(await backend(a, 'GET', `/v1/imports/${id}/export?format=csv`));
    },
  },
  {
    name: 'freeze: map-headers 300 x 300 labels of 500 characters',
    run: (a) => {
      const headers = (side: string) => Array.from({ length: 300 }, (_, i) => ({ key: `${side}${i}`, label: `${side} ${i} ${'label words '.repeat(42)}`.slice(0, 500) }));
      return sdk(a, 'POST', '/v1/intelligence/map-headers', JSON.stringify({ schemaHeaders: headers('s'), fileHeaders: headers('f') })).then(answered);
    },
  },
  {
    name: 'freeze: 60 MB JSON body to POST /v1/templates (Secret Key)',
    prepare: async () => JSON.stringify({ key: 'big', name: 'big', schema: { key: 'big', fields: [] }, metadata: { blob: 'm'.repeat(60_000_000) } }),
    run: (a, body) => backend(a, 'POST', '/v1/templates', body).then(answered),
  },
  {
    name: 'freeze: 60 MB JSON body to map-headers (Public Key)',
    prepare: async () => {
      const headers = Array.from({ length: 300_000 }, (_, i) => ({ key: `k${i}`, label: `${'label '.repeat(30)}` }));
      return JSON.stringify({ schemaHeaders: headers, fileHeaders: headers });
    },
    run: (a, body) => sdk(a, 'POST', '/v1/intelligence/map-headers', body).then(answered),
  },
  {
    name: 'freeze: 30 concurrent map-headers 500 x 500 (Public Key)',
    prepare: async () => {
      const words = ['customer', 'email', 'address', 'phone', 'number', 'first', 'name', 'last', 'city', 'country', 'zip', 'order'];
      const label = (i: number) => Array.from({ length: 5 }, (_, j) => words[(i * 7 + j * 3) % words.length] + (j % 3 ? '' : String(i))).join(' ');
      const side = (p: string) => Array.from({ length: 500 }, (_, i) => ({ key: `${p}${i}`, label: label(i) }));
      return JSON.stringify({ schemaHeaders: side('s'), fileHeaders: side('f') });
    },
    run: async (a, body) => {
      const answers = await Promise.all(Array.from({ length: 30 }, async () => (await answered(await sdk(a, 'POST', '/v1/intelligence/map-headers', body))).split(' ')[0]));
      const counts = new Map<string, number>();
      for (const status of answers) counts.set(status!, (counts.get(status!) ?? 0) + 1);
      return [...counts].map(([status, n]) => `${n} x ${status}`).join(', ');
    },
  },
  {
    name: 'damage: 14 imports with a 40 MB meta.blob each',
    run: async (a) => {
      const body = JSON.stringify({ meta: { schemaKey: 'blob', blob: 'b'.repeat(40_000_000) }, rows: [{ a: 1 }] });
      let answer = '';
      for (let i = 0; i < 14; i++) answer = await answered(await sdk(a, 'POST', '/v1/imports', body));
      return answer;
    },
  },
  {
    name: 'damage: imports list and stats overview afterwards',
    run: async (a) => `${await answered(await backend(a, 'GET', '/v1/imports?limit=100'))}, ${await answered(await backend(a, 'GET', '/v1/stats/overview'))}`,
  },
  {
    // Before SQLite's migration 0010 each list page read every overflow page of the schemas (22 ms a page here).
    name: 'stall: 100 imports with a 1 MB originalSchema, then 20 list pages (100)',
    prepare: async (a) => {
      const schema = { fields: Array.from({ length: 2000 }, (_, i) => ({ key: `f${i}`, description: 'd'.repeat(480) })) };
      for (let i = 0; i < 100; i++) await stored(a, JSON.stringify({ meta: { schemaKey: 'schema' }, originalSchema: schema, rows: [{ f0: 'x' }] }));
      return '';
    },
    run: async (a) => {
      let answer = '';
      for (let i = 0; i < 20; i++) answer = await answered(await backend(a, 'GET', '/v1/imports?limit=100'));
      return answer;
    },
  },
  {
    name: 'unexportable: NDJSON, 40 rows of 15 MiB',
    run: (a) =>
      sdk(a, 'POST', '/v1/imports', stream(function* () {
        yield '{"meta":{"schemaKey":"huge"}}\n';
        for (let i = 0; i < 40; i++) yield `{"blob":"${'h'.repeat(15 * 1024 ** 2)}"}\n`;
      }), 'application/x-ndjson').then(answered),
  },
  {
    name: 'no disk cap: NDJSON of 100 MB from an end-user (cap 64 MiB)',
    run: (a) =>
      sdk(a, 'POST', '/v1/imports', stream(function* () {
        yield '{"meta":{"schemaKey":"disk"}}\n';
        for (let i = 0; i < 1000; i++) yield `${Array.from({ length: 1000 }, (_, j) => `{"n":${i * 1000 + j},"text":"${'d'.repeat(80)}"}`).join('\n')}\n`;
      }), 'application/x-ndjson').then(answered),
  },
  {
    name: '500s: meta, meta.file, originalSchema nested 5 000 deep',
    run: async (a) => {
      const answers = [];
      for (const members of [`"meta":{"schemaKey":"n","x":${deep(5000)}}`, `"meta":{"schemaKey":"n","file":${deep(5000)}}`, `"meta":{"schemaKey":"n"},"originalSchema":${deep(5000)}`]) {
        answers.push(await answered(await sdk(a, 'POST', '/v1/imports', `{${members},"rows":[{"a":1}]}`)));
      }
      return answers.join(', ');
    },
  },
  {
    name: '500s: a 25 MB body with meta nested 100 000 deep (parse worker)',
    run: (a) => sdk(a, 'POST', '/v1/imports', `{"meta":{"schemaKey":"n","x":${deep(100_000)}},"rows":[${rowsText(300_000)}]}`).then(answered),
  },
  {
    name: 'stall: DELETE /v1/imports/{id} of 300 000 rows',
    prepare: (a) => stored(a, `{"meta":{"schemaKey":"big"},"rows":[${rowsText(300_000)}]}`),
    run: async (a, id) => answered(await backend(a, 'DELETE', `/v1/imports/${id}`)),
  },
  {
    name: 'stall: DELETE /v1/end-users/{id}, 5 imports x 60 000 rows',
    prepare: async (a) => {
      for (let k = 0; k < 5; k++) await stored(a, `{"meta":{"schemaKey":"eve"},"rows":[${rowsText(60_000)}]}`);
      return 'eve';
    },
    run: async (a, endUser) => answered(await backend(a, 'DELETE', `/v1/end-users/${endUser}`)),
  },
];

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
