// Slow uploads against the PostgreSQL writer pool: ten NDJSON imports of one account send their first line and
// 600 rows, then nothing (as many as IMPORTD_PG_WRITERS' default); a second later another account posts 1 000
// rows as JSON. Prints how long that import took (a build that let slow uploads hold their writer connections
// answered it only once they ended). --steady: each slow upload sends 600 rows more every 100 ms instead, never
// pausing. Run: npx tsx bench/slow-uploads.ts [--steady] [BUNDLE...] (default build/importd.cjs)
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
// @ts-expect-error: a plain ES module of the scripts, without types
import { startPgServer } from '../scripts/pg-server.mjs';

const SLOW_UPLOADS = 10;
const GIVE_UP_MS = 30_000;

const args = process.argv.slice(2);
const steady = args.includes('--steady');
const named = args.filter((arg) => arg !== '--steady');
const bundles = named.length > 0 ? named : ['build/importd.cjs'];
const encoder = new TextEncoder();
const rows = (n: number) => Array.from({ length: n }, (_, i) => `{"n":${i}}\n`).join('');

async function measure(bundle: string): Promise<void> {
  const server = await startPgServer();
  try {
    await against(bundle, `${server.url}/postgres`);
  } finally {
    server.stop();
  }
}

async function against(bundle: string, url: string): Promise<void> {
  const run = ['-e', `require(${JSON.stringify(path.resolve(bundle))}).main(process.argv.slice(1)).then((code) => process.exit(code ?? 0))`];
  const cli = (args: string[]) => {
    const result = spawnSync(process.execPath, [...run, ...args, '--db', url], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(result.stderr);
    return result.stdout;
  };
  cli(['migrate']);
  const slowKey = JSON.parse(cli(['env', 'create', 'slow', '--json'])).secretKey.key as string;
  cli(['account', 'create', 'other']);
  const otherKey = JSON.parse(cli(['env', 'create', 'fast', '--account', 'other', '--json'])).secretKey.key as string;
  const port = 18_000 + Math.floor(Math.random() * 1000);
  const node = spawn(process.execPath, [...run, 'serve', '--db', url, '--port', String(port)], { stdio: 'ignore', env: { ...process.env, IMPORTD_RATE_LIMIT: '0' } });
  try {
    await time(`http://127.0.0.1:${port}`, slowKey, otherKey, bundle);
  } finally {
    node.kill();
  }
}

async function time(base: string, slowKey: string, otherKey: string, bundle: string): Promise<void> {
  const api = `${base}/v1/imports`;
  for (;;) {
    try {
      await fetch(`${base}/healthz`);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const slow = Array.from({ length: SLOW_UPLOADS }, () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const headers = { Authorization: `Bearer ${slowKey}`, 'Content-Type': 'application/x-ndjson' };
    const response = fetch(api, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
    controller.enqueue(encoder.encode(`{"meta":{"schemaKey":"slow"}}\n${rows(600)}`));
    const more = steady ? setInterval(() => controller.enqueue(encoder.encode(rows(600))), 100) : undefined;
    return { controller, response, more };
  });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const started = performance.now();
  const body = JSON.stringify({ meta: { schemaKey: 'fast' }, rows: Array.from({ length: 1000 }, (_, n) => ({ n })) });
  const answered = await Promise.race([
    fetch(api, { method: 'POST', headers: { Authorization: `Bearer ${otherKey}`, 'Content-Type': 'application/json' }, body }).then((r) => String(r.status)),
    new Promise<string>((resolve) => setTimeout(() => resolve(`no answer within ${GIVE_UP_MS} ms`), GIVE_UP_MS)),
  ]);
  console.log(`${bundle}: the other account's import ${answered} after ${Math.round(performance.now() - started)} ms`);
  for (const upload of slow) {
    clearInterval(upload.more);
    upload.controller.close();
  }
  const statuses = await Promise.all(slow.map((upload) => upload.response.then((r) => r.status)));
  console.log(`${bundle}: the slow uploads, once ended: ${statuses.join(' ')}`);
}

async function main() {
  for (const bundle of bundles) await measure(bundle);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
