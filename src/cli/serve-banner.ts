import { isIP } from 'node:net';

/**
 * The one human line `importd serve` prints when its output is a terminal (JSON logs are for machines): where
 * to open it. A wildcard address is shown as localhost, where a browser on the same machine reaches it.
 */
export function serveBanner(version: string, host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : isIP(host) === 6 ? `[${host}]` : host;
  const url = `http://${shown}:${port}`;
  return `importd ${version} serving ${url}/ (API: ${url}/v1/openapi.json, importer: ${url}/embed/importer.js; stop with Ctrl-C)\n`;
}
