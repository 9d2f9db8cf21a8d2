import type { Command } from 'commander';
import { formatBytes } from '../../lib/format-bytes';
import { summarizeMetrics, type MetricsSummary } from '../../lib/metrics-summary';
import { ServiceError } from '../../services/errors';
import { printJson } from '../io';
import { configOverrides } from '../options';
import type { CliRuntime } from '../runtime';

/** A scrape is a few hundred lines; anything far larger is not importd's metrics endpoint. */
const MAX_SCRAPE_BYTES = 8 * 1024 * 1024;

/** `importd status`: the running server's figures from its metrics listener, for an operator at a terminal. */
export function registerStatus(program: Command, runtime: CliRuntime): void {
  program
    .command('status')
    .description("print a running server's figures (requests, imports, rows, memory) from its metrics endpoint")
    .option('--url <url>', 'metrics endpoint (default http://<IMPORTD_METRICS_ADDR>/metrics)')
    .option('--json', 'print the figures as JSON')
    .action(async (options: { url?: string; json?: boolean }, command: Command) => {
      const url = options.url ?? localMetricsUrl(runtime, command);
      const text = await scrape(url);
      // Anything else answering 200 (a health check, a proxy's page) would read as an idle server.
      if (!/^(?:importd_|process_start_time_seconds)/m.test(text)) throw new ServiceError('internal_error', `${url} is not importd's metrics endpoint (no importd_ metrics in its answer)`);
      const summary = summarizeMetrics(text, Date.now() / 1000);
      if (options.json) return printJson(runtime.io, { url, ...summary });
      runtime.io.out(formatSummary(url, summary));
    });
}

function localMetricsUrl(runtime: CliRuntime, command: Command): string {
  const address = runtime.loadConfig(configOverrides(command)).metricsAddr;
  if (!address) {
    throw new ServiceError('validation_failed', 'metrics are off: set IMPORTD_METRICS_ADDR (the same value as the server) or pass --url');
  }
  const host = address.host === '0.0.0.0' || address.host === '::' ? '127.0.0.1' : address.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/metrics`;
}

async function scrape(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(5000) });
  } catch (error) {
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new ServiceError('internal_error', `cannot read metrics from ${url}: ${reason} (is importd serve running with IMPORTD_METRICS_ADDR set?)`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new ServiceError('internal_error', `cannot read metrics from ${url}: status ${response.status}`);
  }
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of response.body ?? []) {
    length += chunk.byteLength;
    if (length > MAX_SCRAPE_BYTES) throw new ServiceError('internal_error', `cannot read metrics from ${url}: more than ${formatBytes(MAX_SCRAPE_BYTES)}`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function formatSummary(url: string, s: MetricsSummary): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const size = (value: number | null) => (value === null ? '-' : formatBytes(value));
  const lines = [
    `importd status (${url})`,
    `  uptime          ${s.uptimeSeconds === null ? '-' : formatDuration(s.uptimeSeconds)}`,
    `  requests        ${n(s.requests.total)} (2xx ${n(s.requests.byClass['2xx'])}, 3xx ${n(s.requests.byClass['3xx'])}, 4xx ${n(s.requests.byClass['4xx'])}, 5xx ${n(s.requests.byClass['5xx'])}); rate limited ${n(s.requests.rateLimited)}`,
    `  imports         completed ${n(s.imports.completed)}, rejected ${n(s.imports.rejected)}, abandoned ${n(s.imports.abandoned)}, failed ${n(s.imports.failed)}`,
    `  ingested        ${n(s.ingested.rows)} rows, ${formatBytes(s.ingested.bytes)}`,
    `  exported        ${n(s.exported.rows)} rows, ${formatBytes(s.exported.bytes)}`,
    `  parse worker    ${n(s.parseWorkerJobs)} job(s) in progress or queued`,
    `  webhooks        ${n(s.webhooks.delivered)} delivered, ${n(s.webhooks.failed)} failed attempt(s)`,
    ...s.pools.map((p) => `  db pool ${p.pool.padEnd(8)}${n(p.busy)} busy, ${n(p.idle)} idle of ${n(p.max)}; ${n(p.waiting)} waiting`),
    `  process         RSS ${size(s.process.residentMemoryBytes)}, heap ${size(s.process.heapUsedBytes)}, CPU ${s.process.cpuSeconds === null ? '-' : `${s.process.cpuSeconds.toFixed(1)} s`}, event loop lag p99 ${s.process.eventLoopLagP99Seconds === null ? '-' : `${(s.process.eventLoopLagP99Seconds * 1000).toFixed(1)} ms`}`,
  ];
  if (s.requests.routes.length > 0) {
    lines.push('  routes (by requests):');
    for (const r of s.requests.routes.slice(0, 15)) {
      lines.push(`    ${`${r.method} ${r.route}`.padEnd(44)} ${n(r.requests).padStart(9)} requests, mean ${r.meanMs} ms${r.errors > 0 ? `, ${n(r.errors)} 5xx` : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function formatDuration(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return [d ? `${d}d` : '', h ? `${h}h` : '', m ? `${m}m` : '', `${seconds % 60}s`].filter(Boolean).join(' ');
}
