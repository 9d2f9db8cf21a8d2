// The per-request cost of the metrics middleware: the same trivial route with and without it, in process
// (CPU time, best of several alternating runs, since the development machine is shared).
// Run: npx tsx bench/metrics-cost.ts
import { Hono } from 'hono';
import { requestMetrics } from '../src/http/metrics/request-metrics';
import { createMetrics } from '../src/http/metrics/registry';
import type { AppEnv } from '../src/http/env';
import type { ParsePool } from '../src/services/imports/parse-pool';

const N = 50_000;
const RUNS = 7;

function app(withMetrics: boolean) {
  const router = new Hono<AppEnv>();
  if (withMetrics) router.use(requestMetrics(createMetrics({ parsePool: { pending: 0 } as ParsePool })));
  router.get('/v1/imports/:importId', (c) => c.body('{"ok":true}', 200, { 'Content-Type': 'application/json' }));
  return router;
}

async function cpuMicrosPerRequest(target: Hono<AppEnv>): Promise<number> {
  const request = new Request('http://localhost/v1/imports/0190a000-0000-7000-8000-000000000000');
  const started = process.cpuUsage();
  for (let i = 0; i < N; i++) await target.fetch(request);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / N;
}

(async () => {
  const plain = app(false);
  const measured = app(true);
  const without: number[] = [];
  const withMetrics: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    without.push(await cpuMicrosPerRequest(plain));
    withMetrics.push(await cpuMicrosPerRequest(measured));
  }
  const best = (values: number[]) => Math.min(...values);
  console.log(`without metrics ${best(without).toFixed(2)} µs/request, with ${best(withMetrics).toFixed(2)} µs/request: +${(best(withMetrics) - best(without)).toFixed(2)} µs`);
})();
