// The webhook sender's claim (a window of store.webhooks.pendingEndpoints, then claimDue) with many endpoints,
// one with a large backlog due, every other with a retry pending but not yet due (a wide receiver outage): its
// time must stay bounded by the window, not grow with the endpoints or the backlog.
// Run: npx tsx bench/webhook-claim.ts [ENDPOINTS=10000] [BACKLOG=200000]
//      node scripts/test-pg.mjs bench/webhook-claim.ts   (the same on a throw-away PostgreSQL server, default sizes)
import { createHarness, createTestEnvironment } from '../test/helpers/harness';

async function main() {
  const endpoints = Number(process.argv[2] ?? 10_000);
  const backlog = Number(process.argv[3] ?? 200_000);
  const h = await createHarness();
  try {
    const env = await createTestEnvironment(h);
    const at = '2026-01-31T12:00:00.000Z';
    const insert = async (head: string, n: number, values: (i: number) => unknown[]) => {
      for (let i = 0; i < n; i += 500) {
        const rows = Array.from({ length: Math.min(500, n - i) }, (_, k) => values(i + k));
        await h.sql(`${head} VALUES ${rows.map((row) => `(${row.map(() => '?').join(',')})`).join(',')}`, ...rows.flat());
      }
    };
    const active = h.engine === 'sqlite' ? 1 : true;
    await insert('INSERT INTO webhook_endpoints (id, account_id, environment_id, url, description, events, secret, active, created_at)', endpoints, (i) => [
      `w${i}`, env.accountId, env.environmentId, 'https://hooks.example.com', '', '["import.completed"]', 'whsec_x', active, at,
    ]);
    await insert('INSERT INTO webhook_events (id, account_id, type, payload, created_at)', backlog, (i) => [`e${i}`, env.accountId, 'import.completed', '{}', at]);
    await insert('INSERT INTO webhook_deliveries (endpoint_id, event_id, status, attempts, next_attempt_at)', backlog, (i) => ['w0', `e${i}`, 'pending', 0, at]);
    await insert('INSERT INTO webhook_deliveries (endpoint_id, event_id, status, attempts, next_attempt_at)', endpoints - 1, (i) => [`w${i + 1}`, `e${i}`, 'pending', 1, '2026-02-02T00:00:00.000Z']);
    if (h.engine === 'postgres') await h.sql('ANALYZE');
    const times: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      const started = process.hrtime.bigint();
      // Every other claim with the backlogged endpoint at its cap, as while its attempts run.
      const inFlight: { endpoints: Record<string, number>; accounts: Record<string, number> } = i % 2 ? { endpoints: { w0: 4 }, accounts: { [env.accountId]: 4 } } : { endpoints: {}, accounts: {} };
      await h.ctx.store.webhooks.claimDue({ now: '2026-02-01T00:00:00.000Z', owner: 'bench', leaseUntil: '2026-02-01T00:00:01.000Z', limit: 16, perEndpoint: 4, perAccount: 8, inFlight, endpoints: await h.ctx.store.webhooks.pendingEndpoints(null, 256) });
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    times.sort((a, b) => a - b);
    console.log(`${h.engine}: ${endpoints} endpoints, a backlog of ${backlog} on one, a retry not yet due on each other: one window (256) and its claim, median ${times[10]!.toFixed(2)} ms, max ${times[20]!.toFixed(2)} ms`);
  } finally {
    await h.close();
  }
}

void main();
