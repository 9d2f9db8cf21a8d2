import { redactDatabaseUrl } from '../core/database-url';
import { serve, type ServerType } from '@hono/node-server';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Config } from '../config/config';
import type { Logger } from '../core/logger';
import { answerClientError } from './client-error';
import { listenError } from './listen-error';

/** Larger request heads are refused with 431 by Node's parser before the app sees them. */
export const MAX_HEADER_BYTES = 16 * 1024;

export interface RunningServer {
  port: number;
  /** Stops accepting connections, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

/**
 * Starts the Node HTTP server with timeouts that cut off slow clients (slowloris) and oversized headers.
 * `wrap` may put a listener of its own in front of the app's (fast-lane.ts).
 */
export function startServer(
  fetch: (request: Request) => Response | Promise<Response>,
  config: Config,
  logger: Logger,
  wrap: (app: RequestListener) => RequestListener = (app) => app,
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server: ServerType = serve(
      {
        fetch,
        createServer: ((options: object, app: RequestListener) => createServer(options, wrap(app))) as typeof createServer,
        hostname: config.host,
        port: config.port,
        serverOptions: {
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
      },
      (info) => {
        logger.info('listening', { host: config.host, port: info.port, db: redactDatabaseUrl(config.dbPath) });
        resolve({
          port: info.port,
          close: () =>
            new Promise<void>((done) => {
              (server as Server).close(() => done());
              (server as Server).closeIdleConnections();
            }),
        });
      },
    );
    server.on('clientError', (error: Error, socket) => answerClientError(error, socket, logger));
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, config.host, config.port, { host: '--host', port: '--port' })));
  });
}
