import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { validationFailed } from '../errors';
import { MAX_WEBHOOK_URL } from './schemas';

// The SSRF guard: a webhook may only reach a public address. Anything else (loopback, private, link-local
// with the cloud metadata address 169.254.169.254, CGNAT, unique-local fd00:ec2::254, unspecified,
// multicast, reserved, an IPv6 form carrying a non-public IPv4 address, any IPv6 address outside the global
// unicast block 2000::/3) is refused at registration for a
// literal address, and at every delivery after DNS resolution, in the lookup the socket connects with: the
// address checked is the address connected to, so a DNS answer that changes in between cannot slip past.

/** IANA's global unicast block: every IPv6 address outside it is reserved or special-purpose today. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** True for a global unicast address; IPv4-mapped and translated IPv6 forms are judged by their IPv4 address. */
export function isPublicAddress(text: string): boolean {
  if (!ipaddr.isValid(text)) return false;
  let address = ipaddr.parse(text);
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) address = v6.toIPv4Address();
    // ipaddr.js calls the deprecated IPv4-compatible ::/96 (`[::127.0.0.1]`, which URL writes `[::7f00:1]`)
    // plain unicast: only the global block is let through.
    else if (['rfc6145', 'rfc6052', '6to4', 'teredo'].includes(v6.range()) || !v6.match(GLOBAL_UNICAST_V6)) return false;
  }
  return address.range() === 'unicast';
}

/** The URL's host as an address, without IPv6 brackets, or undefined when it is a name. */
function literalAddress(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(host) ? host : undefined;
}

/**
 * Checks a webhook URL at registration: absolute, https (http only with allowPrivate), no credentials or
 * fragment, at most MAX_WEBHOOK_URL characters as stored (normalising percent-encodes non-ASCII characters and
 * turns a non-ASCII host into punycode, so a URL within the limit as sent can grow several times past it), and
 * unless allowPrivate a host that is a name other than localhost, or a public address.
 * Throws validation_failed (path `url`).
 */
export function checkWebhookUrl(text: string, allowPrivate: boolean): string {
  const refuse = (message: string) => validationFailed([{ path: 'url', message }]);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('is not an absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) throw refuse('must use https');
  if (url.username || url.password) throw refuse('must not contain credentials');
  if (url.hash) throw refuse('must not contain a fragment');
  if (url.href.length > MAX_WEBHOOK_URL) throw refuse(`must be at most ${MAX_WEBHOOK_URL} characters once normalised (non-ASCII characters percent-encoded)`);
  if (!allowPrivate) {
    const address = literalAddress(url);
    if (address !== undefined && !isPublicAddress(address)) throw refuse('must not point to a loopback, private, link-local or other non-public address');
    if (/(^|\.)localhost\.?$/i.test(url.hostname)) throw refuse('must not point to localhost');
  }
  return url.href;
}

/**
 * A delivery refused by the address guard. Its message (stored as the delivery's last error, shown to the
 * tenant) never names the address: a resolved one would let a tenant map internal names to private addresses.
 */
export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
  constructor() {
    super('not a public address');
  }
}

/** Throws BlockedAddressError when the URL's literal host is not public (a name is checked by `guardedLookup`). */
export function checkLiteralTarget(url: URL): void {
  const address = literalAddress(url);
  if (address !== undefined && !isPublicAddress(address)) throw new BlockedAddressError();
}

/** A socket lookup that resolves the name and fails unless every address it answers is public. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    if (addresses.length === 0 || addresses.some((entry) => !isPublicAddress(entry.address))) {
      return callback(new BlockedAddressError(), '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
