import { createServer, type Server } from 'node:http';
import type { Logger } from '../../core/logger';
import type { Registry } from 'prom-client';
import { listen, type Listening } from '../listen';

/**
 * Serves `GET /metrics` (Prometheus text format) on its own address, apart from the API: scrapers and
 * dashboards reach it on an internal interface while the API port faces clients. Nothing else is served.
 */
export async function startMetricsListener(registry: Registry, address: { host: string; port: number }, logger: Logger): Promise<Listening> {
  // A scrape is one small GET: short timeouts keep a stuck scraper from holding sockets.
  const server: Server = createServer({ requestTimeout: 10_000, headersTimeout: 10_000, keepAliveTimeout: 5_000 }, (request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found: metrics are at GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      (error: unknown) => {
        logger.error('metrics collection failed', { error: error instanceof Error ? error.message : String(error) });
        response.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics collection failed\n');
      },
    );
  });
  const listening = await listen(server, address.host, address.port, { host: 'IMPORTD_METRICS_ADDR', port: 'IMPORTD_METRICS_ADDR' });
  logger.info('metrics listening', { host: address.host, port: listening.port });
  return listening;
}
