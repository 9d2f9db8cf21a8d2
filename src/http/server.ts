import { serve, type ServerType } from '@hono/node-server';
import type { Server } from 'node:http';
import type { Config } from '../config/config';
import type { Logger } from '../core/logger';

export interface RunningServer {
  port: number;
  /** Stops accepting connections, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

/** Starts the Node HTTP server with timeouts that cut off slow clients (slowloris) and oversized headers. */
export function startServer(fetch: (request: Request) => Response | Promise<Response>, config: Config, logger: Logger): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server: ServerType = serve(
      {
        fetch,
        hostname: config.host,
        port: config.port,
        serverOptions: {
          requestTimeout: config.requestTimeoutSeconds * 1000,
          headersTimeout: 20_000,
          keepAliveTimeout: 5_000,
          maxHeaderSize: 16 * 1024,
        },
      },
      (info) => {
        logger.info('listening', { host: config.host, port: info.port, db: config.dbPath });
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
    server.once('error', reject);
  });
}
