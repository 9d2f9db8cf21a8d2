// The three origin forms DESIGN.md allows on a Public Key, and the one matcher used for every request.
import { getDomain, getPublicSuffix } from 'tldts';

const LABEL = '(?!-)[a-z0-9-]{1,63}(?<!-)';
const DOMAIN = `${LABEL}(?:\\.${LABEL})+`;
const EXACT = new RegExp(`^https://(${DOMAIN})(?::(\\d{1,5}))?$`);
const WILDCARD = new RegExp(`^https://\\*\\.(${DOMAIN})$`);
const LOCALHOST = /^http:\/\/localhost:(\d{1,5})$/;
const WILDCARD_PREFIX = 'https://*.';

/** Normalises an allowed-origin entry (lower-case host, default port dropped), or returns undefined if invalid. */
export function normalizeAllowedOrigin(entry: string): string | undefined {
  const text = entry.trim().toLowerCase();
  const exact = EXACT.exec(text);
  const wildcard = WILDCARD.exec(text);
  // A top-level domain is never all digits (RFC 3696 section 2): such a host is an IP literal, not a domain.
  if (/\.\d+$/.test((exact ?? wildcard)?.[1] ?? '')) return undefined;
  if (exact) {
    const port = exact[2];
    if (port !== undefined && !validPort(port)) return undefined;
    return port === undefined || port === '443' ? `https://${exact[1]}` : `https://${exact[1]}:${Number(port)}`;
  }
  if (wildcard) return `${WILDCARD_PREFIX}${wildcard[1]}`;
  const local = LOCALHOST.exec(text);
  // Port 80 is http's default: a browser sends `Origin: http://localhost`, which this form never matches.
  if (local && validPort(local[1]!) && Number(local[1]) !== 80) return `http://localhost:${Number(local[1])}`;
  return undefined;
}

function validPort(port: string): boolean {
  const n = Number(port);
  return Number.isInteger(n) && n >= 1 && n <= 65535;
}

/** Normalises a request's Origin header value, or returns undefined if it is not a usable origin. */
export function normalizeRequestOrigin(origin: string | undefined): string | undefined {
  // An Origin header is scheme://host[:port] and nothing else: no path, userinfo, wildcard or "null".
  if (!origin || !/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i.test(origin)) return undefined;
  try {
    return new URL(origin).origin;
  } catch {
    return undefined;
  }
}

/**
 * The public suffix a normalised wildcard entry spans when its domain is one (`https://*.co.uk`,
 * `https://*.github.io`: the ICANN and the private sections of the Public Suffix List, as shipped by tldts), else
 * undefined. Such an entry lets any site registered under the suffix, anyone's, use the key.
 */
export function publicSuffixWildcard(entry: string): string | undefined {
  if (!entry.startsWith(WILDCARD_PREFIX)) return undefined;
  const domain = entry.slice(WILDCARD_PREFIX.length);
  return getPublicSuffix(domain, { allowPrivateDomains: true, extractHostname: false }) === domain ? domain : undefined;
}

/**
 * Whether `host`, under a wildcard's `domain`, is a site of that domain's: its registrable domain (the ICANN and
 * private sections of the Public Suffix List) is `domain` or above it. A wildcard whose domain is not a public
 * suffix but has some below it (`https://*.amazonaws.com` over `s3.amazonaws.com`) would otherwise allow sites
 * anyone registers there (`https://bucket.s3.amazonaws.com`); one over a public suffix allows no host at all.
 */
function siteOfDomain(host: string, domain: string): boolean {
  const site = getDomain(host, { allowPrivateDomains: true, extractHostname: false });
  return site !== null && (site === domain || domain.endsWith(`.${site}`));
}

/**
 * True when `origin` (already normalised) is allowed by one of the normalised allowed-origin entries. A wildcard
 * allows only hosts of the sites at or above its domain (siteOfDomain): one over a public suffix, refused on write
 * but possibly stored before it was, allows nothing.
 */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  for (const entry of allowed) {
    if (entry === origin) return true;
    if (entry.startsWith(WILDCARD_PREFIX)) {
      const domain = entry.slice(WILDCARD_PREFIX.length);
      if (origin.startsWith('https://') && origin.endsWith(`.${domain}`)) {
        const host = origin.slice('https://'.length, origin.length - domain.length - 1);
        if (host.length > 0 && !host.includes(':') && !host.includes('/') && siteOfDomain(origin.slice('https://'.length), domain)) return true;
      }
    }
  }
  return false;
}
