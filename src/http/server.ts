import { redactDatabaseUrl } from '../core/database-url';
import { createServer } from 'node:http';
import type { Config } from '../config/config';
import type { Logger } from '../core/logger';
import { appListener } from './app-listener';
import { answerClientError } from './client-error';
import { drainable } from './drain';
import { listen, type Listening } from './listen';
import type { ImportdMetrics } from './metrics/registry';

/** Larger request heads are refused with 431 by Node's parser before the app sees them. */
export const MAX_HEADER_BYTES = 16 * 1024;

export interface RunningServer extends Listening {
  /**
   * Stops accepting connections and lets in-flight requests finish (drain.ts); with `graceMs`, destroys what
   * is still open at that deadline.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Starts the Node HTTP server with timeouts that cut off slow clients (slowloris) and oversized headers.
 * `metrics` count what the app's listener answers before the app sees a request (app-listener.ts).
 */
export async function startServer(
  fetch: (request: Request) => Response | Promise<Response>,
  config: Config,
  logger: Logger,
  metrics?: ImportdMetrics,
): Promise<RunningServer> {
  const answering = drainable(appListener(fetch, config, logger, metrics));
  const server = createServer(
    {
      requestTimeout: config.requestTimeoutSeconds * 1000,
      // Node requires headersTimeout <= requestTimeout.
      headersTimeout: Math.min(20_000, config.requestTimeoutSeconds * 1000),
      // How often Node looks for connections past those timeouts (default 30 s, which would let a
      // slowloris client hold a socket half a minute longer than the timeout says).
      connectionsCheckingInterval: 1_000,
      // Longer than the usual load balancer's idle timeout (60 s): a client or proxy that reuses a socket
      // the server has just closed sees its request fail (ECONNRESET/EPIPE), so the server must not close first.
      keepAliveTimeout: 65_000,
      maxHeaderSize: MAX_HEADER_BYTES,
    },
    answering.listener,
  );
  server.on('clientError', (error: Error, socket) => answerClientError(error, socket, logger));
  const running = await listen(server, config.host, config.port, { host: '--host', port: '--port' });
  logger.info('listening', { host: config.host, port: running.port, db: redactDatabaseUrl(config.dbPath) });
  return { port: running.port, close: (graceMs) => answering.drain(server, graceMs) };
}
