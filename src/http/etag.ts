import { createHash } from 'node:crypto';

/** A strong entity tag: the SHA-256 of the exact representation sent. */
export function strongEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url')}"`;
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): `W/` is ignored and `*` matches any. */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((entry) => {
    const tag = entry.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
