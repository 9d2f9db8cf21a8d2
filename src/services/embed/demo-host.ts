import { ServiceError } from '../errors';

/**
 * The demo page (`importd embed demo`) carries a fresh session token and the Public Key, so it answers only
 * when asked for by its own name, `localhost:PORT` or `127.0.0.1:PORT`: a page of another site whose name
 * is rebound to 127.0.0.1 (DNS rebinding) sends its own name as Host, and is refused before anything is
 * issued. Throws host_not_allowed.
 */
export function checkDemoHost(host: string | undefined, port: number): void {
  const asked = host?.toLowerCase();
  if (asked === `localhost:${port}` || asked === `127.0.0.1:${port}`) return;
  throw new ServiceError('host_not_allowed', `the demo page answers only as http://localhost:${port} or http://127.0.0.1:${port}`);
}
