import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect, createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { parsePrometheusText, type PrometheusSample } from '../../src/lib/prometheus-text';
import { waitFor } from '../helpers/live-server';
import { freePort, runBin, runBinAsync, startServe, type ServerProcess } from '../helpers/process';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { binDatabases, testEngine } from '../helpers/test-database';

const DASHBOARD = path.resolve(__dirname, '..', '..', 'docs', 'grafana-dashboard.json');

// Runs the built bundle (`npm test` builds it first; alone: `node scripts/build.mjs`).
describe('metrics of ./bin/importd serve on IMPORTD_METRICS_ADDR', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-e2e-metrics-'));
  const databases = binDatabases(dir);
  let db: string;
  const RATE_LIMIT = 12;
  let server: ServerProcess;
  let receiver: Receiver;
  let metricsAddr: string;
  let secretKey: string;
  let samples: PrometheusSample[];
  const expected = { importBytes: 0, exportBytes: 0, rateLimited: 0 };

  const scrape = async () => {
    const response = await fetch(`http://${metricsAddr}/metrics`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    return parsePrometheusText(await response.text());
  };
  const value = (name: string, labels: Record<string, string> = {}) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);
  const api = (pathname: string, init: RequestInit = {}) =>
    fetch(`${server.url}${pathname}`, { ...init, headers: { Authorization: `Bearer ${secretKey}`, ...init.headers } });

  before(async () => {
    db = await databases.create();
    assert.equal(runBin(['migrate', '--db', db]).code, 0);
    const created = runBin(['env', 'create', 'production', '--json', '--db', db]);
    assert.equal(created.code, 0, created.stderr);
    secretKey = JSON.parse(created.stdout).secretKey.key;
    // Two endpoints: one answers 200, the other 500 (retried only an hour later, so each event fails once).
    receiver = await startReceiver();
    receiver.answer((response) => response.writeHead(response.req.url === '/fails' ? 500 : 200).end());
    const webhooks = { IMPORTD_WEBHOOK_ALLOW_PRIVATE: 'true', IMPORTD_WEBHOOK_RETRY_SCHEDULE: '3600' };
    for (const hook of ['/works', '/fails']) assert.equal(runBin(['webhooks', 'add', receiver.url(hook), '--env', 'production', '--db', db], webhooks).code, 0);
    metricsAddr = `127.0.0.1:${await freePort()}`;
    server = await startServe(db, {
      IMPORTD_METRICS_ADDR: metricsAddr,
      IMPORTD_RATE_LIMIT: String(RATE_LIMIT),
      IMPORTD_RATE_WINDOW_SECONDS: '3600',
      IMPORTD_MAX_BODY: '1kb',
      ...webhooks,
    });

    const body = JSON.stringify({ meta: { schemaKey: 'contacts' }, rows: [{ a: 1, b: 'x' }, { a: 2, b: 'y' }, { a: 3, b: 'z' }] });
    const imported = await api('/v1/imports', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    assert.equal(imported.status, 201);
    expected.importBytes += Buffer.byteLength(body);
    const ndjson = `${JSON.stringify({ meta: { schemaKey: 'contacts' } })}\n{"a":4}\n{"a":5}\n`;
    const streamed = await api('/v1/imports', { method: 'POST', headers: { 'Content-Type': 'application/x-ndjson' }, body: ndjson });
    assert.equal(streamed.status, 201);
    expected.importBytes += Buffer.byteLength(ndjson);
    const id = ((await imported.json()) as { id: string }).id;
    assert.equal((await api('/v1/imports', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"rows":' })).status, 400);
    // Refused by the body limit before the route runs: still the route's request, and a rejected import.
    assert.equal((await api('/v1/imports', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: ' '.repeat(2000) })).status, 413);
    // A client that hangs up halfway through its upload: neither a server failure nor a refusal.
    await new Promise<void>((resolve, reject) => {
      const { hostname, port } = new URL(server.url);
      const socket = connect(Number(port), hostname, () => {
        socket.write(`POST /v1/imports HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${secretKey}\r\nContent-Type: application/x-ndjson\r\nContent-Length: 100000\r\n\r\n{"meta":{"schemaKey":"contacts"}}\n{"a":1}\n`);
        setTimeout(() => socket.destroy(), 200);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    assert.equal((await api(`/v1/imports/${id}`)).status, 200);
    assert.equal((await api(`/v1/imports/${id}/rows?limit=2`)).status, 200);
    // A stream is timed to its end: the theme events, held open for 300 ms.
    const events = new AbortController();
    const stream = await api('/v1/themes/events', { signal: events.signal });
    assert.equal(stream.status, 200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    events.abort();
    const exported = await api(`/v1/imports/${id}/export?format=csv`);
    expected.exportBytes = (await exported.arrayBuffer()).byteLength;
    assert.equal((await api('/v1/imports/01a20c08-0751-7bc1-b52a-1f0164319893')).status, 404);
    for (let i = 0; i < 40; i++) assert.equal((await fetch(`${server.url}/v1/${Math.random().toString(36).slice(2)}/${i}`)).status, 404);
    // 7 authenticated requests so far: the rest of the window's budget, then refusals (counted as seen, since
    // a window boundary may fall in between).
    for (let i = 0; i < RATE_LIMIT; i++) if ((await api('/v1/environments')).status === 429) expected.rateLimited++;
    // Two completed imports, two endpoints: four attempts, counted once each has ended.
    await waitFor(async () => {
      samples = await scrape();
      return value('importd_webhook_deliveries_total') === 4 && value('importd_imports_total', { outcome: 'abandoned' }) === 1;
    }, 10_000);
  });
  after(async () => {
    await server?.stop();
    await receiver?.close();
    await databases.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts requests by route template and status', () => {
    const count = 'importd_http_request_duration_seconds_count';
    assert.equal(value(count, { method: 'POST', route: '/v1/imports', status: '201' }), 2);
    assert.equal(value(count, { method: 'POST', route: '/v1/imports', status: '400' }), 1);
    assert.equal(value(count, { method: 'POST', route: '/v1/imports', status: '413' }), 1);
    assert.equal(value(count, { method: 'POST', route: '/v1/imports', status: '499' }), 1);
    assert.equal(value(count, { status: '500' }), 0);
    assert.equal(value(count, { method: 'GET', route: '/v1/imports/:importId', status: '200' }), 1);
    assert.equal(value(count, { method: 'GET', route: '/v1/imports/:importId', status: '404' }), 1);
    assert.equal(value(count, { method: 'GET', route: '/v1/imports/:importId/rows', status: '200' }), 1);
    assert.equal(value(count, { method: 'GET', route: '/v1/imports/:importId/export', status: '200' }), 1);
    assert.equal(value(count, { route: '/healthz' }) >= 1, true);
    assert.equal(value(count, { route: 'unmatched', status: '404' }), 40);
    assert.equal(value('importd_http_request_duration_seconds_bucket', { route: '/v1/imports/:importId', status: '200', le: '+Inf' }), 1);
    assert.ok(value('importd_http_request_duration_seconds_sum', { route: '/v1/imports', status: '201' }) > 0);
    assert.equal(value(count, { route: '/v1/themes/events', status: '200' }), 1);
    assert.ok(value('importd_http_request_duration_seconds_sum', { route: '/v1/themes/events' }) >= 0.29);
  });

  it('bounds label values: random paths share one label, no raw path or id becomes a label', () => {
    const routes = new Set(samples.filter((s) => s.name === 'importd_http_request_duration_seconds_count').map((s) => s.labels.route));
    for (const route of routes) assert.match(route!, /^(unmatched|\/healthz|\/v1\/[\w/:-]*)$/, route);
    assert.equal([...routes].some((route) => /[0-9a-f]{8}-/.test(route!)), false);
    assert.equal(samples.filter((s) => s.name === 'importd_http_request_duration_seconds_count' && s.labels.route === 'unmatched').length, 1);
  });

  it('counts imports by outcome, rows and bytes ingested and exported', () => {
    assert.equal(value('importd_imports_total', { outcome: 'completed' }), 2);
    assert.equal(value('importd_imports_total', { outcome: 'rejected' }), 2);
    assert.equal(value('importd_imports_total', { outcome: 'abandoned' }), 1);
    assert.equal(value('importd_imports_total', { outcome: 'failed' }), 0);
    assert.equal(value('importd_ingested_rows_total'), 5);
    assert.equal(value('importd_ingested_bytes_total'), expected.importBytes);
    assert.equal(value('importd_exported_rows_total'), 3);
    assert.equal(value('importd_exported_bytes_total'), expected.exportBytes);
    assert.equal(value('importd_parse_worker_jobs'), 0);
    assert.ok(samples.some((s) => s.name === 'importd_parse_worker_jobs'));
  });

  it('counts rate-limited requests', () => {
    assert.ok(expected.rateLimited > 0);
    assert.equal(value('importd_rate_limited_requests_total'), expected.rateLimited);
    assert.equal(value('importd_http_request_duration_seconds_count', { route: '/v1/environments', status: '429' }), expected.rateLimited);
  });

  it('counts webhook delivery attempts by outcome', () => {
    assert.equal(receiver.received.length, 4);
    assert.equal(value('importd_webhook_deliveries_total', { outcome: 'delivered' }), 2);
    assert.equal(value('importd_webhook_deliveries_total', { outcome: 'failed' }), 2);
  });

  it('exports the PostgreSQL connection pools, and nothing of the kind on SQLite', () => {
    const pools = ['queries', 'writers'];
    if (testEngine === 'sqlite') {
      assert.equal(samples.filter((s) => s.name.startsWith('importd_db_pool_')).length, 0);
      return;
    }
    for (const pool of pools) {
      assert.equal(value('importd_db_pool_max_connections', { pool }), 10);
      assert.equal(value('importd_db_pool_waiting_requests', { pool }), 0);
      const busy = value('importd_db_pool_connections', { pool, state: 'busy' });
      const idle = value('importd_db_pool_connections', { pool, state: 'idle' });
      assert.ok(busy >= 0 && idle >= 0 && busy + idle <= 10, `${pool}: ${busy} busy, ${idle} idle`);
    }
    // Every request used the query pool, and the two imports each took a writer.
    assert.ok(value('importd_db_pool_connections', { pool: 'queries' }) >= 1);
    assert.ok(value('importd_db_pool_connections', { pool: 'writers' }) >= 1);
  });

  it('exports the process default metrics', () => {
    for (const name of ['process_resident_memory_bytes', 'process_cpu_seconds_total', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds']) {
      assert.ok(value(name) > 0, name);
    }
  });

  it('passes promtool check metrics (and, without promtool, its counter-suffix rule)', async () => {
    const text = await (await fetch(`http://${metricsAddr}/metrics`)).text();
    // prom-client's own nodejs_active_*_total gauges broke the rule that only counters end in _total.
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!] as const);
    assert.ok(types.length > 20, String(types.length));
    assert.deepEqual(types.filter(([name, type]) => name.endsWith('_total') && type !== 'counter'), []);
    // .ci/run installs Debian's prometheus package, which brings promtool, when the image lacks it.
    const promtool = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((file) => existsSync(file));
    if (promtool) {
      const checked = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
      assert.equal(checked.status, 0, `${checked.stdout}${checked.stderr}`);
    }
  });

  it('exports every metric the Grafana dashboard queries', () => {
    const dashboard = readFileSync(DASHBOARD, 'utf8');
    const used = new Set(dashboard.match(/\b(?:importd|process|nodejs)_[a-z0-9_]+/g));
    assert.ok(used.size >= 10);
    const exported = new Set(samples.map((s) => s.name));
    // The pools exist on PostgreSQL only (their panel stays empty on SQLite).
    const postgresOnly = (name: string) => name.startsWith('importd_db_pool_');
    assert.ok([...used].some(postgresOnly), 'the dashboard shows the PostgreSQL pools');
    for (const name of used) {
      if (testEngine === 'sqlite' && postgresOnly(name)) continue;
      assert.ok(exported.has(name), `the dashboard uses ${name}, which the server does not export`);
    }
  });

  it('serves metrics only on their own listener, and only GET /metrics there', async () => {
    assert.equal((await fetch(`${server.url}/metrics`)).status, 404);
    assert.equal((await fetch(`http://${metricsAddr}/`)).status, 404);
    assert.equal((await fetch(`http://${metricsAddr}/metrics`, { method: 'POST' })).status, 404);
  });

  it('importd status prints the same figures', async () => {
    const json = await runBinAsync(['status', '--json'], { IMPORTD_METRICS_ADDR: metricsAddr });
    assert.equal(json.code, 0, json.stderr);
    const status = JSON.parse(json.stdout);
    assert.deepEqual(status.imports, { completed: 2, rejected: 2, abandoned: 1, failed: 0 });
    assert.deepEqual(status.ingested, { rows: 5, bytes: expected.importBytes });
    assert.deepEqual(status.exported, { rows: 3, bytes: expected.exportBytes });
    assert.deepEqual(status.webhooks, { delivered: 2, failed: 2 });
    assert.deepEqual(status.pools.map((p: { pool: string; max: number }) => [p.pool, p.max]), testEngine === 'sqlite' ? [] : [['queries', 10], ['writers', 10]]);
    assert.ok(status.requests.rateLimited >= expected.rateLimited);
    assert.ok(status.requests.byClass['4xx'] >= 40 + 1 + 1 + expected.rateLimited);
    assert.ok(status.process.residentMemoryBytes > 0);
    assert.ok(status.requests.routes.some((r: { route: string; requests: number }) => r.route === 'unmatched' && r.requests >= 40));
    const text = await runBinAsync(['status', '--url', `http://${metricsAddr}/metrics`]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^importd status \(http:\/\/127\.0\.0\.1:\d+\/metrics\)\n/);
    assert.match(text.stdout, /imports +completed 2, rejected 2, abandoned 1, failed 0\n/);
    assert.match(text.stdout, /ingested +5 rows, /);
    assert.match(text.stdout, /webhooks +2 delivered, 2 failed attempt\(s\)\n/);
    if (testEngine === 'postgres') assert.match(text.stdout, /db pool writers +\d+ busy, \d+ idle of 10; 0 waiting\n/);
    assert.match(text.stdout, /GET \/v1\/imports\/:importId\/rows +1 requests/);
    // Something else answering 200 is not read as an idle server.
    const elsewhere = await runBinAsync(['status', '--url', `${server.url}/healthz`]);
    assert.equal(elsewhere.code, 1);
    assert.match(elsewhere.stderr, /is not importd's metrics endpoint/);
  });
});

describe('metrics listener refusals and importd status errors', () => {
  it('refuses IMPORTD_METRICS_ADDR on the API port before starting', async () => {
    const port = await freePort();
    const dir = mkdtempSync(path.join(tmpdir(), 'importd-e2e-metrics-'));
    try {
      const result = await runBinAsync(['serve', '--port', String(port), '--db', path.join(dir, 'db')], { IMPORTD_METRICS_ADDR: `127.0.0.1:${port}` });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /^error \[invalid_config\]: invalid setting IMPORTD_METRICS_ADDR: port \d+ is the API port/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names IMPORTD_METRICS_ADDR when its port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    const dir = mkdtempSync(path.join(tmpdir(), 'importd-e2e-metrics-'));
    try {
      const result = await runBinAsync(['serve', '--port', String(await freePort()), '--db', path.join(dir, 'db')], { IMPORTD_METRICS_ADDR: `127.0.0.1:${port}` });
      assert.notEqual(result.code, 0);
      assert.match(result.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: port ${port} is already in use \\(.*IMPORTD_METRICS_ADDR\\)`));
    } finally {
      taken.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('importd status says metrics are off when neither IMPORTD_METRICS_ADDR nor --url is given (exit 2)', async () => {
    const result = await runBinAsync(['status'], { IMPORTD_METRICS_ADDR: '' });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^error \[validation_failed\]: metrics are off: set IMPORTD_METRICS_ADDR/);
  });

  it('importd status names the address when no server answers (exit 1)', async () => {
    const port = await freePort();
    const result = await runBinAsync(['status'], { IMPORTD_METRICS_ADDR: `127.0.0.1:${port}` });
    assert.equal(result.code, 1);
    assert.match(result.stderr, new RegExp(`^error \\[internal_error\\]: cannot read metrics from http://127\\.0\\.0\\.1:${port}/metrics: .*ECONNREFUSED`));
  });
});
