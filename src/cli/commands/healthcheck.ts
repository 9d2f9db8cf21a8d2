import type { Command } from 'commander';
import { ServiceError, validationFailed } from '../../services/errors';
import { configOverrides } from '../options';
import type { CliRuntime } from '../runtime';

/**
 * `importd healthcheck`: exits 0 when a running server answers GET /healthz with 200. Container images
 * without a shell or curl (distroless) run it as their HEALTHCHECK.
 */
export function registerHealthcheck(program: Command, runtime: CliRuntime): void {
  program
    .command('healthcheck')
    .description('exit 0 if the server answers GET /healthz (for container health checks)')
    .option('--url <url>', 'URL to check (default http://127.0.0.1:<IMPORTD_PORT>/healthz)')
    .option('--port <port>', 'port of the local server (IMPORTD_PORT, default 8080)')
    .action(async (options: { url?: string }, command: Command) => {
      const url = options.url === undefined ? localHealthUrl(runtime, command) : checkedUrl(options.url);
      let status: number;
      try {
        status = (await fetch(url, { signal: AbortSignal.timeout(3000) })).status;
      } catch (error) {
        const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
        throw new ServiceError('internal_error', `health check of ${url} failed: ${reason}`);
      }
      if (status !== 200) throw new ServiceError('internal_error', `health check of ${url} failed: status ${status}`);
      runtime.io.out(`healthy: ${url}\n`);
    });
}

function checkedUrl(text: string): string {
  const protocol = URL.canParse(text) ? new URL(text).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw validationFailed([{ path: '--url', message: `${JSON.stringify(text)} is not an http:// or https:// URL` }]);
  }
  return text;
}

/** The server's own address: a wildcard listen address is reached through the loopback interface. */
function localHealthUrl(runtime: CliRuntime, command: Command): string {
  const { host, port } = runtime.loadConfig(configOverrides(command));
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}/healthz`;
}
