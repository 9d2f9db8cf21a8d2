import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolFigures } from '../../db/store/store';
import type { ServiceContext } from '../../services/context';

/**
 * Every metric importd exports, in one registry per running server (never prom-client's global one, so
 * several apps in one process, as in tests, keep their own figures). Names are the contract of
 * docs/grafana-dashboard.json and `importd status`.
 */
export interface ImportdMetrics {
  registry: Registry;
  requestDuration: Histogram<'method' | 'route' | 'status'>;
  importsByOutcome: Counter<'outcome'>;
  rateLimited: Counter;
  /** A completed import: its rows and the request body bytes read for it. */
  ingested(rows: number, bytes: number): void;
  /** A piece of an export written to the client. */
  exported(rows: number, bytes: number): void;
  /** One webhook delivery attempt ended. */
  webhookAttempt(outcome: 'delivered' | 'failed'): void;
}

/** Request durations from 0.5 ms (a cached read) to 2 min (a 1M-row import), in seconds. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

const SUMMED_DEFAULT_GAUGES = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/** `pools`: the database's connection pools (`Store.admin.pools`: PostgreSQL's), read at each scrape. */
export function createMetrics(ctx: Pick<ServiceContext, 'parsePool'> & { pools?: () => PoolFigures[] }): ImportdMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client names three of its gauges `..._total`, which Prometheus reserves for counters (`promtool check
  // metrics` fails on them); each is only the sum of the labelled gauge of the same name without the suffix.
  for (const name of SUMMED_DEFAULT_GAUGES) registry.removeSingleMetric(name);
  const counter = (name: string, help: string) => new Counter({ name, help, registers: [registry] });
  const ingestedRows = counter('importd_ingested_rows_total', 'Rows stored by completed imports');
  const ingestedBytes = counter('importd_ingested_bytes_total', 'Request body bytes of completed imports');
  const exportedRows = counter('importd_exported_rows_total', 'Rows sent by exports');
  const exportedBytes = counter('importd_exported_bytes_total', 'Bytes sent by exports (encoded file, before compression)');
  new Gauge({
    name: 'importd_parse_worker_jobs',
    help: 'JSON import bodies handed to the parse worker and not yet finished (the one being parsed included)',
    registers: [registry],
    collect() {
      this.set(ctx.parsePool.pending);
    },
  });
  const { pools } = ctx;
  if (pools) {
    // Read from the pools at scrape time, like the parse worker's queue: nothing is counted per query.
    const gauge = (name: string, help: string, labelNames: string[], read: (figures: PoolFigures, set: (labels: Record<string, string>, value: number) => void) => void) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        collect() {
          for (const figures of pools()) read(figures, (labels, value) => this.set(labels, value));
        },
      });
    gauge('importd_db_pool_connections', 'PostgreSQL connections open per pool, by state (busy or idle)', ['pool', 'state'], (f, set) => {
      set({ pool: f.pool, state: 'busy' }, f.busy);
      set({ pool: f.pool, state: 'idle' }, f.idle);
    });
    gauge('importd_db_pool_max_connections', 'The most connections each PostgreSQL pool opens', ['pool'], (f, set) => set({ pool: f.pool }, f.max));
    gauge('importd_db_pool_waiting_requests', 'Queries or imports waiting for a connection of a full PostgreSQL pool', ['pool'], (f, set) => set({ pool: f.pool }, f.waiting));
  }
  const webhookDeliveries = new Counter({
    name: 'importd_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered (a 2xx answer) or failed (to be retried, or the endpoint disabled)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  return {
    registry,
    requestDuration: new Histogram({
      name: 'importd_http_request_duration_seconds',
      help: 'Time from the request reaching the app to the last byte of its answer (or the client leaving), by route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    importsByOutcome: new Counter({
      name: 'importd_imports_total',
      help: 'POST /v1/imports by outcome: completed (201), rejected (4xx: invalid, unauthorised, too large, rate limited), abandoned (the client went away before its body arrived), failed (5xx)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    rateLimited: counter('importd_rate_limited_requests_total', 'Requests refused with 429 rate_limited'),
    ingested(rows, bytes) {
      ingestedRows.inc(rows);
      ingestedBytes.inc(bytes);
    },
    exported(rows, bytes) {
      if (rows > 0) exportedRows.inc(rows);
      exportedBytes.inc(bytes);
    },
    webhookAttempt(outcome) {
      webhookDeliveries.inc({ outcome });
    },
  };
}
