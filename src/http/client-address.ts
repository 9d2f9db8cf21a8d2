import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';
import type { ProxyRange } from '../config/config';

/** X-Forwarded-For entries looked at, at most: a longer header costs no more than this. */
const MAX_FORWARDED_HOPS = 20;
// Longer than any IPv6 address with a zone: not an address, and not worth handing to isIP.
const MAX_ADDRESS_LENGTH = 64;

/**
 * The client of a request, as the rate limit, the theme stream cap and an import's `endUserIp` see it: the socket's
 * peer, unless the peer is one of the `trusted` proxies (IMPORTD_TRUSTED_PROXIES). Then X-Forwarded-For (repeated
 * headers joined with commas, RFC 9110 section 5.3) is read from the right, each trusted proxy's entry skipped: the
 * first entry that is not one is the client (entries left of it were sent by the client, who may write anything).
 * When every entry looked at is a trusted proxy, the farthest of them is the client, whether the header ended
 * there or the walk stopped at MAX_FORWARDED_HOPS entries. A missing header, or an entry reached that is not a
 * bare IP address (empty, a name, a port), gives the peer. Absent without a socket (in process).
 */
export function clientAddressOf(trusted: readonly ProxyRange[], peer: string | undefined, forwardedFor: string | undefined): string | undefined {
  if (peer === undefined || forwardedFor === undefined || !isTrustedProxy(trusted, peer)) return peer;
  let farthest: string | undefined;
  let end = forwardedFor.length;
  for (let hop = 0; hop < MAX_FORWARDED_HOPS; hop++) {
    const start = end === 0 ? -1 : forwardedFor.lastIndexOf(',', end - 1);
    const entry = forwardedFor.slice(start + 1, end).trim();
    if (entry.length > MAX_ADDRESS_LENGTH || isIP(entry) === 0) return peer;
    if (!isTrustedProxy(trusted, entry)) return entry;
    farthest = entry;
    if (start < 0) break;
    end = start;
  }
  return farthest ?? peer;
}

/** clientAddressOf for a Hono request. With no trusted proxy (the default) no header is read. */
export function clientAddress(c: Context, trusted: readonly ProxyRange[]): string | undefined {
  const peer = peerAddress(c);
  return trusted.length === 0 ? peer : clientAddressOf(trusted, peer, c.req.header('X-Forwarded-For'));
}

/** The peer's address as the socket has it; absent when the app runs without a socket (in-process requests). */
function peerAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** Whether `address` (a bare IP address; IPv4-mapped IPv6 counts as its IPv4 address) is in one of the ranges. */
function isTrustedProxy(trusted: readonly ProxyRange[], address: string): boolean {
  if (trusted.length === 0 || isIP(address) === 0) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return false;
  }
  const kind = parsed.kind();
  // match() compares addresses of one kind only; the kinds are checked first.
  for (const [first, prefix] of trusted) if (first.kind() === kind && (parsed as ipaddr.IPv4).match(first as ipaddr.IPv4, prefix)) return true;
  return false;
}
