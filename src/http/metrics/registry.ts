import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ServiceContext } from '../../services/context';

/**
 * Every metric importd exports, in one registry per running server (never prom-client's global one, so
 * several apps in one process, as in tests, keep their own figures). Names are the contract of
 * docs/grafana-dashboard.json and `importd status`.
 *
 * Hooks for what does not exist yet: webhook deliveries (a counter `importd_webhook_deliveries_total` by
 * `outcome`, counted where a delivery attempt ends) and the PostgreSQL pool (gauges
 * `importd_db_pool_connections` by `state`, read from the pool in a `collect()` like the parse worker's).
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
}

/** Request durations from 0.5 ms (a cached read) to 2 min (a 1M-row import), in seconds. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

export function createMetrics(ctx: Pick<ServiceContext, 'parsePool'>): ImportdMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
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
  return {
    registry,
    requestDuration: new Histogram({
      name: 'importd_http_request_duration_seconds',
      help: 'Time from the request reaching the app to its response head (a streamed body may continue), by route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    importsByOutcome: new Counter({
      name: 'importd_imports_total',
      help: 'POST /v1/imports by outcome: completed (201), rejected (4xx: invalid, unauthorised, too large, rate limited), failed (5xx)',
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
  };
}
