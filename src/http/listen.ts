import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server that listens: the port it got, and how to stop it. */
export interface Listening {
  port: number;
  /** Stops accepting connections, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

/**
 * Listens on host:port (port 0: any free port). Rejects with listenError's reason when it cannot; the listener
 * that rejects stays, so a later error of the server (a failed accept) is not thrown from the event loop.
 */
export function listen(server: Server, host: string, port: number, setting: { host: string; port: string }): Promise<Listening> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, host, port, setting)));
    server.listen(port, host, () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      }),
    );
  });
}

/**
 * What an operator can act on when a server cannot listen, instead of the bare socket error. `setting` names
 * what chose the address: `--host` / `--port` for the API, `IMPORTD_METRICS_ADDR` for the metrics listener.
 */
function listenError(error: NodeJS.ErrnoException, host: string, port: number, setting: { host: string; port: string }): Error {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const why: Record<string, string> = {
    EADDRINUSE: `port ${port} is already in use (another importd serve? choose another with ${setting.port})`,
    EACCES: `not allowed to listen on port ${port} (ports below 1024 need privileges; choose another with ${setting.port})`,
    EADDRNOTAVAIL: `${host} is not an address of this machine (${setting.host})`,
    ENOTFOUND: `host name ${host} does not resolve (${setting.host})`,
  };
  return new Error(`cannot listen on ${where}: ${why[error.code ?? ''] ?? error.message}`);
}
