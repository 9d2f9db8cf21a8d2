import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The peer's address as the socket has it (no forwarding header is trusted: anyone can send one); absent when
 * the app runs without a socket (in-process requests).
 */
export function clientAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
