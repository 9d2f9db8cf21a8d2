/**
 * What an operator can act on when a server cannot listen, instead of the bare socket error. `setting` names
 * what chose the address: `--host` / `--port` for the API, `IMPORTD_METRICS_ADDR` for the metrics listener.
 */
export function listenError(error: NodeJS.ErrnoException, host: string, port: number, setting: { host: string; port: string }): Error {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const why: Record<string, string> = {
    EADDRINUSE: `port ${port} is already in use (another importd serve? choose another with ${setting.port})`,
    EACCES: `not allowed to listen on port ${port} (ports below 1024 need privileges; choose another with ${setting.port})`,
    EADDRNOTAVAIL: `${host} is not an address of this machine (${setting.host})`,
    ENOTFOUND: `host name ${host} does not resolve (${setting.host})`,
  };
  return new Error(`cannot listen on ${where}: ${why[error.code ?? ''] ?? error.message}`);
}
