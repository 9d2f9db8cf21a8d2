import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../test/helpers/process';

export interface Api {
  url: string;
  key: string;
}

export async function request(api: Api, method: string, path: string, body?: string | Uint8Array, contentType = 'application/json') {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${api.key}`, ...(body !== undefined && { 'Content-Type': contentType }) },
    body,
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response;
}

/** Wall time of a request, body fully read. */
export async function timed(api: Api, method: string, path: string, body?: string | Uint8Array, contentType?: string): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const response = await request(api, method, path, body, contentType);
  const text = await response.text();
  return { ms: performance.now() - started, text };
}

/**
 * The list of imports paged from its start (100 a page, at most 100 pages): the times of the first five pages and
 * of the rest. With `floorPage`, the floor of page `page` (0 the first) is timed before each page, so that the
 * machine's drift over the walk falls on both alike (the floor was timed once, before the walks, and the VM's
 * speed moves within seconds); its times are split as the pages' are. The pages are read with node:http on one
 * keep-alive connection (leanGet), the floor being a query in process with no client of its own: `agent`'s, or
 * one of the walk's own, whose first page then pays for opening it.
 */
export async function walkListPages(api: Api, floorPage?: (page: number) => Promise<number> | number, agent?: http.Agent): Promise<ListWalk> {
  if (!agent) return await withAgent((own) => walkListPages(api, floorPage, own));
  let cursor: string | null = null;
  const walk: ListWalk = { first: [], deep: [], floors: { first: [], deep: [] } };
  for (let page = 0; page < 100; page++) {
    if (floorPage) (page < 5 ? walk.floors.first : walk.floors.deep).push(await floorPage(page));
    const { ms, body } = await leanGet(api, `/v1/imports?limit=100${cursor ? `&cursor=${cursor}` : ''}`, agent);
    (page < 5 ? walk.first : walk.deep).push(ms);
    cursor = JSON.parse(body.toString()).pagination.paging.nextCursor;
    if (!cursor) break;
  }
  return walk;
}

/** `use` given one keep-alive connection, closed after: used without a pause, the server never closes it first. */
async function withAgent<T>(use: (agent: http.Agent) => Promise<T>): Promise<T> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    return await use(agent);
  } finally {
    agent.destroy();
  }
}

/**
 * Wall time of a GET with node:http to its last byte, the body left undecoded (as `drained` does): fetch's own
 * work (its Response and stream objects, and decoding the text) cost the client 0.65-0.85 ms more a page of 46 KB
 * on this machine, about as much as the list's floor itself, and none of it is the server's.
 */
function leanGet(api: Api, path: string, agent: http.Agent): Promise<{ ms: number; body: Buffer }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(`${api.url}${path}`, { agent, headers: { Authorization: `Bearer ${api.key}` } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const ms = performance.now() - started;
          const body = Buffer.concat(chunks);
          if (response.statusCode === 200) resolve({ ms, body });
          else reject(new Error(`GET ${path}: ${response.statusCode} ${body.toString()}`));
        });
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/** A walk's page times, the first five pages and the rest, and their floors' alike. */
export interface ListWalk {
  first: number[];
  deep: number[];
  floors: { first: number[]; deep: number[] };
}

/** The middle value (the upper one of an even count). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** An import's wall time and the server's CPU time for it, in ms. */
export interface TimedRun {
  ms: number;
  cpu: number;
}

/** The median of the pairs' own ratios, run r of `runs` over run r of `floors` (imports timed in turns). */
export const medianPairRatio = (runs: TimedRun[], floors: TimedRun[], of: keyof TimedRun) => median(runs.map((run, r) => run[of] / floors[r]![of]));

/**
 * A rows page (100) at the start and at the end of an import: the median of 50 of each, taken in turn (start,
 * end, start, ...) so that the machine's drift over the seconds they take falls on both alike.
 */
export async function rowsPageStartEnd(api: Api, importId: string): Promise<{ start: number; end: number }> {
  const path = (cursor: string | null) => `/v1/imports/${importId}/rows?limit=100${cursor ? `&cursor=${cursor}` : ''}`;
  let cursor: string | null = null;
  let lastCursor: string | null = null;
  do {
    lastCursor = cursor;
    cursor = JSON.parse((await timed(api, 'GET', path(cursor))).text).pagination.paging.nextCursor;
  } while (cursor);
  const start: number[] = [];
  const end: number[] = [];
  for (let r = 0; r < 50; r++) {
    start.push((await timed(api, 'GET', path(null))).ms);
    end.push((await timed(api, 'GET', path(lastCursor))).ms);
  }
  return { start: median(start), end: median(end) };
}

/**
 * The list walked nine times, a floor page timed before each page (walkListPages). The first walk finds a list
 * path the server has not run yet: V8 compiles it and each database connection prepares its statements on first
 * use, a cost paid once per process; it is shown beside the figure. The next eight walks are the figure: forty
 * first pages and the rest, each with their floors. The median of twenty first pages (four walks, until the
 * fifteenth round) measured 1.27-2.18 ms over six sets of walks of one PostgreSQL server, and their quartiles
 * 1.62-3.18 ms in one set.
 */
export async function walkListWarm(api: Api, floorPage: (page: number) => Promise<number> | number): Promise<{ cold: ListWalk; warm: ListWalk }> {
  // One connection for the walks: a walk of its own would open one for its first page, counted in the first pages.
  return await withAgent(async (agent) => {
    const cold = await walkListPages(api, floorPage, agent);
    const warm: ListWalk = { first: [], deep: [], floors: { first: [], deep: [] } };
    for (let walk = 0; walk < 8; walk++) {
      const { first, deep, floors } = await walkListPages(api, floorPage, agent);
      warm.first.push(...first);
      warm.deep.push(...deep);
      warm.floors.first.push(...floors.first);
      warm.floors.deep.push(...floors.deep);
    }
    return { cold, warm };
  });
}

/** The list's three figures: a server's first walk, then the first and the deep pages of the next eight, each against its own floors. */
export function recordListWalks(record: (name: string, value: number, unit: string, floor?: number, target?: string) => void, label: string, { cold, warm }: { cold: ListWalk; warm: ListWalk }) {
  record(`${label}, first pages of the first walk`, median(cold.first), 'ms', median(cold.floors.first));
  record(`${label}, first pages`, median(warm.first), 'ms', median(warm.floors.first), 'ratio <= 3');
  record(`${label}, deep pages`, median(warm.deep), 'ms', median(warm.floors.deep), 'ratio <= 3');
}

/** Wall time of a download, its bytes read but not decoded (decoding is the client's work, not the server's). */
export async function drained(api: Api, path: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const response = await request(api, 'GET', path);
  let bytes = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
  return { ms: performance.now() - started, bytes };
}

/** Peak resident set size of a process (VmHWM), in MiB. */
export function peakRssMiB(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/**
 * CPU time (user + system) a process has used so far, in ms (from /proc, 10 ms resolution); with `thread`,
 * that one thread's (a process's main thread has the process's id).
 */
export function cpuMs(pid: number, thread?: number): number {
  const fields = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Requests per second and p99 latency of a GET under load on loopback, bounded in time, and the server's CPU
 * time per request: on a shared machine the server loses the CPU to others at random, which moves req/s by
 * up to 2x between runs, while CPU time per request stays within about 20 %.
 */
export async function load(url: string, headers: Record<string, string>, seconds: number, serverPid: number) {
  const cpuBefore = cpuMs(serverPid);
  const result = await autocannon({ url, headers, connections: 10, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`load on ${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, cpuMicros: ((cpuMs(serverPid) - cpuBefore) * 1000) / result.requests.total };
}

type LoadFigures = Awaited<ReturnType<typeof load>>;

/**
 * Floors' loads and importd's (one server or several), alternated round by round, and the median of each
 * figure: a single load of each drifts with the shared machine by up to 30 % from one second to the next. Each
 * floor is sent the request the servers are (their headers included).
 */
export async function alternatedLoads(
  floors: { url: string; pid: number }[],
  served: { url: string; headers: Record<string, string>; pid: number }[],
  rounds: number,
  seconds: number,
): Promise<{ floors: LoadFigures[]; served: LoadFigures[] }> {
  const headers = served[0]!.headers;
  const floorLoads: LoadFigures[][] = floors.map(() => []);
  const servedLoads: LoadFigures[][] = served.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, floor] of floors.entries()) floorLoads[i]!.push(await load(floor.url, headers, seconds, floor.pid));
    for (const [i, server] of served.entries()) servedLoads[i]!.push(await load(server.url, server.headers, seconds, server.pid));
  }
  const middle = (loads: LoadFigures[]): LoadFigures => ({
    requestsPerSecond: median(loads.map((figures) => figures.requestsPerSecond)),
    p99Ms: median(loads.map((figures) => figures.p99Ms)),
    cpuMicros: median(loads.map((figures) => figures.cpuMicros)),
  });
  return { floors: floorLoads.map(middle), served: servedLoads.map(middle) };
}

/** Headers Node writes itself on every answer: a floor's server adds its own. */
const NODE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/**
 * A read's answer as importd sends it: the body, and the headers a floor must send with it to send the same
 * bytes (the request id one fixed id of the same length).
 */
export async function answerOf(api: Api, target: string): Promise<{ payload: string; headers: Record<string, string> }> {
  const response = await request(api, 'GET', target);
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) if (!NODE_HEADERS.has(name)) headers[name] = value;
  return { payload: await response.text(), headers };
}

/**
 * A bare Hono server (in its own process, like importd) answering one fixed JSON text with `headers`: the HTTP
 * floor. Given an answer's own headers (answerOf), it sends the same bytes; with none, the body alone. It also
 * takes imports the bare way (POST /imports: the JSON body parsed, its rows counted), for serveImports.
 */
export async function startBareHono(payload: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<{ url: string; pid: number; stop(): void }> {
  const port = await freePort();
  const script = `
    const { Hono } = require('hono');
    const { serve } = require('@hono/node-server');
    const payload = process.env.PAYLOAD;
    const headers = JSON.parse(process.env.HEADERS);
    const app = new Hono();
    // A plain record, as importd's respond() builds: Hono's c.body() turns more than one header into a Headers
    // object that node-server must convert back, a cost importd does not pay.
    app.get('/', () => new Response(payload, { status: 200, headers }));
    app.post('/imports', async (c) => c.json({ rows: (await c.req.json()).rows.length }, 201));
    serve({ fetch: app.fetch, hostname: '127.0.0.1', port: ${port} }, () => console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', script], { env: { ...process.env, PAYLOAD: payload, HEADERS: JSON.stringify(headers) }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid!, stop: () => child.kill() };
}

/**
 * Has a bare server (startBareHono) take the imports a server under test took before its reads are measured,
 * with the same bodies: a Node process serves small reads 1.2-1.35x slower after serving large POST bodies
 * than fresh, a bare Hono route as much as importd (docs/performance.md, "Twelfth round"), so a server that
 * took them is also compared with a floor that took them.
 */
export async function serveImports(floorUrl: string, bodies: readonly (string | Uint8Array)[]): Promise<void> {
  for (const body of bodies) {
    const response = await fetch(new URL('/imports', floorUrl), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    if (response.status !== 201) throw new Error(`the floor refused an import: ${response.status}`);
    await response.arrayBuffer();
  }
}

/**
 * Reads one path in a loop until SIGTERM; prints the slowest read and the count. One read before it says
 * ready, untimed: a process's first fetch loads fetch's own code and opens the connection (60-70 ms on the
 * development machine), which timed the reader instead of the server.
 */
const READER = `
  const [url, key, path] = process.argv.slice(1);
  let stop = false, worst = 0, reads = 0;
  process.on('SIGTERM', () => (stop = true));
  const read = async () => await (await fetch(url + path, { headers: { Authorization: 'Bearer ' + key } })).arrayBuffer();
  (async () => {
    await read();
    process.stdout.write('ready\\n');
    while (!stop) {
      const started = performance.now();
      await read();
      worst = Math.max(worst, performance.now() - started);
      reads++;
    }
    process.stdout.write(JSON.stringify({ worst, reads }));
  })();`;

/**
 * Starts timing small reads of `path` in a loop, from a process of its own (so the work measured cannot
 * delay them on the client side); `stop()` answers the slowest read and how many there were.
 */
export async function startReader(api: Api, path: string): Promise<{ stop(): Promise<{ worst: number; reads: number }> }> {
  const reader = spawn(process.execPath, ['-e', READER, api.url, api.key, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  // Stopped only once it listens for SIGTERM: on a loaded machine its start can take longer than an attack.
  await new Promise<void>((resolve, reject) => {
    reader.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('\n')) resolve();
    });
    reader.once('exit', (code) => reject(new Error(`the reader exited (${code}) before it started`)));
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  return {
    async stop() {
      const exited = new Promise((resolve) => reader.once('exit', resolve));
      reader.kill('SIGTERM');
      await exited;
      return JSON.parse(output.slice(output.indexOf('\n') + 1)) as { worst: number; reads: number };
    },
  };
}

/** A script running a bundle's `main` with the process's arguments. */
const bundleMain = (bundle: string) => `require(${JSON.stringify(path.resolve(bundle))}).main(process.argv.slice(1)).then((code) => (process.exitCode = code))`;

/**
 * A CLI command run by that bundle's own code (its stdout): a build compared with another migrates and sets up its
 * database with its own migrations (a copy of build/ finds the `migrations/` folder nearest to it).
 */
export function runBundle(bundle: string, args: string[]): string {
  return execFileSync(process.execPath, ['-e', bundleMain(bundle), ...args], { encoding: 'utf8' });
}

/**
 * `importd serve` from a given bundle (a copy of an earlier build/ for an A/B run; it finds node_modules
 * from where it lies), on 127.0.0.1, once it answers; `nodeArgs` go to node (e.g. --cpu-prof).
 */
export async function startBundle(bundle: string, db: string, nodeArgs: string[] = []): Promise<{ url: string; pid: number; stop(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, '-e', bundleMain(bundle), 'serve', '--host', '127.0.0.1', '--port', String(port), '--db', db], {
    env: { ...process.env, IMPORTD_LOG_LEVEL: 'warn', IMPORTD_RATE_LIMIT: '0' },
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  child.once('exit', (code) => {
    console.error(`${bundle} exited (${code})`);
    process.exit(1);
  });
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    pid: child.pid!,
    stop: () => {
      child.removeAllListeners('exit');
      child.kill();
    },
  };
}
