import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { summarizeMetrics } from '../../src/lib/metrics-summary';
import { parsePrometheusText } from '../../src/lib/prometheus-text';

describe('Prometheus text parsing for importd status', () => {
  it('reads names, labels (escapes included) and values; skips comments and blank lines', () => {
    const samples = parsePrometheusText(
      [
        '# HELP x a metric',
        '# TYPE x counter',
        'x 3',
        'y{a="1",b="quote \\" back\\\\slash \\n newline"} 2.5e3',
        '',
        'z_bucket{le="+Inf",route="/v1/imports/:importId"} 7',
      ].join('\n'),
    );
    assert.deepEqual(samples, [
      { name: 'x', labels: {}, value: 3 },
      { name: 'y', labels: { a: '1', b: 'quote " back\\slash \n newline' }, value: 2500 },
      { name: 'z_bucket', labels: { le: '+Inf', route: '/v1/imports/:importId' }, value: 7 },
    ]);
  });

  it('sums labelled histogram series by status class and by route, with mean durations', () => {
    const text = [
      'importd_http_request_duration_seconds_sum{method="GET",route="/v1/imports/:importId",status="200"} 0.5',
      'importd_http_request_duration_seconds_count{method="GET",route="/v1/imports/:importId",status="200"} 100',
      'importd_http_request_duration_seconds_sum{method="GET",route="/v1/imports/:importId",status="500"} 0.1',
      'importd_http_request_duration_seconds_count{method="GET",route="/v1/imports/:importId",status="500"} 2',
      'importd_http_request_duration_seconds_sum{method="GET",route="unmatched",status="404"} 0.01',
      'importd_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 10',
      'importd_imports_total{outcome="completed"} 4',
      'importd_imports_total{outcome="abandoned"} 3',
      'process_start_time_seconds 1000',
    ].join('\n');
    const summary = summarizeMetrics(text, 1060);
    assert.equal(summary.uptimeSeconds, 60);
    assert.deepEqual(summary.requests.byClass, { '2xx': 100, '3xx': 0, '4xx': 10, '5xx': 2 });
    assert.equal(summary.requests.total, 112);
    assert.deepEqual(summary.requests.routes[0], { method: 'GET', route: '/v1/imports/:importId', requests: 102, errors: 2, meanMs: 5.88 });
    assert.deepEqual(summary.imports, { completed: 4, rejected: 0, abandoned: 3, failed: 0 });
    assert.equal(summary.process.residentMemoryBytes, null);
  });

  it('reads webhook outcomes and each PostgreSQL pool; none of either when absent (SQLite)', () => {
    const text = [
      'importd_webhook_deliveries_total{outcome="delivered"} 7',
      'importd_webhook_deliveries_total{outcome="failed"} 3',
      'importd_db_pool_connections{pool="queries",state="busy"} 2',
      'importd_db_pool_connections{pool="queries",state="idle"} 5',
      'importd_db_pool_max_connections{pool="queries"} 10',
      'importd_db_pool_waiting_requests{pool="queries"} 0',
      'importd_db_pool_connections{pool="writers",state="busy"} 4',
      'importd_db_pool_connections{pool="writers",state="idle"} 0',
      'importd_db_pool_max_connections{pool="writers"} 4',
      'importd_db_pool_waiting_requests{pool="writers"} 6',
    ].join('\n');
    const summary = summarizeMetrics(text, 0);
    assert.deepEqual(summary.webhooks, { delivered: 7, failed: 3 });
    assert.deepEqual(summary.pools, [
      { pool: 'queries', busy: 2, idle: 5, max: 10, waiting: 0 },
      { pool: 'writers', busy: 4, idle: 0, max: 4, waiting: 6 },
    ]);
    const none = summarizeMetrics('process_start_time_seconds 1', 2);
    assert.deepEqual(none.webhooks, { delivered: 0, failed: 0 });
    assert.deepEqual(none.pools, []);
  });
});
