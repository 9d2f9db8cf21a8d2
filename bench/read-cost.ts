// CPU time per request of the authenticated reads in process (app.request), against a bare Hono route
// answering the same bytes: where the server's time goes without Node's HTTP work or the machine's noise.
// Best of several alternating runs. Run: npx tsx bench/read-cost.ts
import { Hono } from 'hono';
import { createLogger } from '../src/core/logger';
import { createApp } from '../src/http/app';
import { call, createHarness, createTestEnvironment } from '../test/helpers/harness';
import { importBody } from './data';

const N = 5_000;
const RUNS = 7;

async function cpuMicrosPerRequest(send: () => Promise<Response>): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < N; i++) await (await send()).arrayBuffer();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / N;
}

(async () => {
  const h = await createHarness({ config: { IMPORTD_LOG_LEVEL: 'warn', IMPORTD_RATE_LIMIT: '0' } });
  // As `importd serve` runs in the bench (IMPORTD_LOG_LEVEL=warn): no log line per request.
  const app = createApp({ ctx: h.ctx, logger: createLogger('warn') });
  const env = await createTestEnvironment(h);
  const created = (await (await call(h, 'POST', '/v1/imports', { key: env.secretKey, rawBody: importBody(1000) })).json()) as { id: string };
  const headers = { Authorization: `Bearer ${env.secretKey}` };
  const targets = { detail: `/v1/imports/${created.id}`, rows: `/v1/imports/${created.id}/rows?limit=100`, list: '/v1/imports?limit=100' };
  for (const [name, path] of Object.entries(targets)) {
    const response = await app.request(path, { headers });
    if (response.status !== 200) throw new Error(`${name}: ${response.status}`);
    const payload = await response.text();
    const bare = new Hono();
    bare.get('/*', (c) => c.body(payload, 200, { 'Content-Type': 'application/json' }));
    const served: number[] = [];
    const floor: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      served.push(await cpuMicrosPerRequest(() => Promise.resolve(app.request(path, { headers }))));
      floor.push(await cpuMicrosPerRequest(() => Promise.resolve(bare.request(path, { headers }))));
    }
    const best = (values: number[]) => Math.min(...values);
    console.log(`${name.padEnd(8)} importd ${best(served).toFixed(1)} µs/request, bare Hono ${best(floor).toFixed(1)} µs: ${(best(served) / best(floor)).toFixed(2)}x`);
  }
  h.close();
  process.exit(0);
})();
