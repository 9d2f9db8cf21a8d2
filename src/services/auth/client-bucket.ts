import ipaddr from 'ipaddr.js';
import type { KeyPrincipal } from './principal';

/**
 * The client a request comes from, as counted: its address, an IPv4-mapped IPv6 one as the IPv4 address, and an
 * IPv6 one by its /64 (the block one host or home is given, so walking its addresses does not make a new client).
 * Anything unparsable is kept as it is.
 */
export function clientOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}

/**
 * What a key's requests are counted under. A Public Key is in every page of its site and an Origin header is
 * forged at will by anything but a browser, so counting it per key would let one client exhaust it for every
 * end-user: it is counted per key and client. A Secret Key is its owner's backend, counted per key. Without a
 * socket (in process) the key alone.
 */
export function keyClientBucket(key: KeyPrincipal, clientAddress: string | undefined): string {
  if (key.kind === 'secret' || clientAddress === undefined) return key.keyId;
  return `${key.keyId} ${clientOf(clientAddress)}`;
}
