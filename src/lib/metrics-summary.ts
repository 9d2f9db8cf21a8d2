import { parsePrometheusText, type PrometheusSample } from './prometheus-text';

export interface RouteFigures {
  method: string;
  route: string;
  requests: number;
  errors: number;
  meanMs: number;
}

/** The figures `importd status` shows, read from a scrape of the metrics listener. */
export interface MetricsSummary {
  uptimeSeconds: number | null;
  requests: { total: number; byClass: Record<'2xx' | '3xx' | '4xx' | '5xx', number>; rateLimited: number; routes: RouteFigures[] };
  imports: { completed: number; rejected: number; abandoned: number; failed: number };
  ingested: { rows: number; bytes: number };
  exported: { rows: number; bytes: number };
  parseWorkerJobs: number;
  webhooks: { delivered: number; failed: number };
  /** PostgreSQL's connection pools; none on SQLite. */
  pools: { pool: string; busy: number; idle: number; max: number; waiting: number }[];
  process: { residentMemoryBytes: number | null; heapUsedBytes: number | null; cpuSeconds: number | null; eventLoopLagP99Seconds: number | null };
}

/** Sums the scraped Prometheus text into the operator's figures; metrics that are absent count as 0 or null. */
export function summarizeMetrics(text: string, nowSeconds: number): MetricsSummary {
  const byName = new Map<string, PrometheusSample[]>();
  for (const sample of parsePrometheusText(text)) byName.set(sample.name, [...(byName.get(sample.name) ?? []), sample]);
  const sum = (name: string, where: (labels: Record<string, string>) => boolean = () => true) =>
    (byName.get(name) ?? []).filter((s) => where(s.labels)).reduce((total, s) => total + s.value, 0);
  const single = (name: string) => (byName.has(name) ? sum(name) : null);
  const byClass = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  const routes = new Map<string, RouteFigures & { seconds: number }>();
  const seconds = new Map<string, number>();
  for (const sample of byName.get('importd_http_request_duration_seconds_sum') ?? []) seconds.set(seriesKey(sample.labels), sample.value);
  for (const sample of byName.get('importd_http_request_duration_seconds_count') ?? []) {
    const { method = '', route = '', status = '' } = sample.labels;
    const count = sample.value;
    const statusClass = `${status[0]}xx`;
    if (statusClass in byClass) byClass[statusClass as keyof typeof byClass] += count;
    const key = `${method} ${route}`;
    const figures = routes.get(key) ?? { method, route, requests: 0, errors: 0, meanMs: 0, seconds: 0 };
    figures.requests += count;
    if (Number(status) >= 500) figures.errors += count;
    figures.seconds += seconds.get(seriesKey(sample.labels)) ?? 0;
    routes.set(key, figures);
  }
  const started = single('process_start_time_seconds');
  return {
    uptimeSeconds: started === null ? null : Math.max(0, Math.round(nowSeconds - started)),
    requests: {
      total: Object.values(byClass).reduce((a, b) => a + b, 0),
      byClass,
      rateLimited: sum('importd_rate_limited_requests_total'),
      routes: [...routes.values()]
        .sort((a, b) => b.requests - a.requests)
        .map(({ seconds, ...figures }) => ({ ...figures, meanMs: figures.requests === 0 ? 0 : Math.round((seconds / figures.requests) * 1e5) / 100 })),
    },
    imports: {
      completed: sum('importd_imports_total', (l) => l.outcome === 'completed'),
      rejected: sum('importd_imports_total', (l) => l.outcome === 'rejected'),
      abandoned: sum('importd_imports_total', (l) => l.outcome === 'abandoned'),
      failed: sum('importd_imports_total', (l) => l.outcome === 'failed'),
    },
    ingested: { rows: sum('importd_ingested_rows_total'), bytes: sum('importd_ingested_bytes_total') },
    exported: { rows: sum('importd_exported_rows_total'), bytes: sum('importd_exported_bytes_total') },
    parseWorkerJobs: sum('importd_parse_worker_jobs'),
    webhooks: {
      delivered: sum('importd_webhook_deliveries_total', (l) => l.outcome === 'delivered'),
      failed: sum('importd_webhook_deliveries_total', (l) => l.outcome === 'failed'),
    },
    pools: (byName.get('importd_db_pool_max_connections') ?? []).map(({ labels: { pool = '' }, value: max }) => ({
      pool,
      busy: sum('importd_db_pool_connections', (l) => l.pool === pool && l.state === 'busy'),
      idle: sum('importd_db_pool_connections', (l) => l.pool === pool && l.state === 'idle'),
      max,
      waiting: sum('importd_db_pool_waiting_requests', (l) => l.pool === pool),
    })),
    process: {
      residentMemoryBytes: single('process_resident_memory_bytes'),
      heapUsedBytes: single('nodejs_heap_size_used_bytes'),
      cpuSeconds: single('process_cpu_seconds_total'),
      eventLoopLagP99Seconds: single('nodejs_eventloop_lag_p99_seconds'),
    },
  };
}

function seriesKey(labels: Record<string, string>): string {
  return `${labels.method} ${labels.route} ${labels.status}`;
}
