import { hash, randomInt, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_BODY_LENGTH = 40;
const DISPLAY_PREFIX_LENGTH = 12;

export type KeyKind = 'secret' | 'public';
const KIND_PREFIX: Record<KeyKind, string> = { secret: 'sk_', public: 'pk_' };

/** A key as it is issued: the plaintext (shown once), its SHA-256 hash and the display prefix (stored). */
export interface IssuedKey {
  plaintext: string;
  hash: string;
  prefix: string;
}

export function generateKey(kind: KeyKind): IssuedKey {
  let body = '';
  for (let i = 0; i < KEY_BODY_LENGTH; i++) body += BASE62[randomInt(62)];
  const plaintext = KIND_PREFIX[kind] + body;
  return { plaintext, hash: hashKey(plaintext), prefix: plaintext.slice(0, DISPLAY_PREFIX_LENGTH) };
}

/** Every authenticated request hashes its key: the one-shot digest, a third of a Hash object's cost. */
export function hashKey(plaintext: string): string {
  return hash('sha256', plaintext, 'hex');
}

/** Which kind a presented key claims to be, or undefined when it is not shaped like an importd key. */
export function keyKindOf(plaintext: string): KeyKind | undefined {
  if (!/^(sk|pk)_[0-9A-Za-z]{32,128}$/.test(plaintext)) return undefined;
  return plaintext.startsWith('sk_') ? 'secret' : 'public';
}

/** Compares two hex digests in constant time. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
