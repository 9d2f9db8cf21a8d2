import ipaddr from 'ipaddr.js';
import type { KeyPrincipal } from './principal';

/**
 * The client a request comes from, as counted: its address, an IPv4-mapped IPv6 one as the IPv4 address, and an
 * IPv6 one by its /64 (the block one host or home is given, so walking its addresses does not make a new client).
 * Anything unparsable is kept as it is.
 */
export function clientOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  // process() reads an IPv4-mapped IPv6 address as its IPv4 address.
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}

/**
 * The client a Public Key's request is counted under, beside the key: `<key id> <client>`. A Public Key is in
 * every page of its site and an Origin header is forged at will by anything but a browser, so counting it per
 * key alone would let one client exhaust it for every end-user. Undefined for a Secret Key (its owner's backend,
 * counted per key) and without a socket (in process); `clientAddress` is only asked for a Public Key, so a
 * Secret Key's request never pays for reading forwarding headers.
 */
export function publicKeyClient(key: KeyPrincipal, clientAddress: () => string | undefined): string | undefined {
  if (key.kind === 'secret') return undefined;
  const address = clientAddress();
  return address === undefined ? undefined : `${key.keyId} ${clientOf(address)}`;
}
