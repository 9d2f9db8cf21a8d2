import { isoTime } from '../../core/clock';
import { hashesEqual, hashKey, keyKindOf, type KeyKind } from '../../core/keys';
import { normalizeRequestOrigin, originAllowed } from '../../core/origins';
import type { KeyCheckRow } from '../../db/store';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import type { KeyPrincipal } from './principal';

const TOUCH_INTERVAL_MS = 60_000;

export interface AuthenticatedKey extends KeyPrincipal {
  allowedOrigins: string[];
}

/**
 * Resolves a presented key to its principal. Unknown, deactivated, expired (rolled, past its grace period) or
 * malformed keys throw invalid_api_key.
 * `lastUsedAt` is written at most once a minute per key, so authentication costs no write per request.
 */
export async function authenticateKey(ctx: ServiceContext, presented: string): Promise<AuthenticatedKey> {
  const key = presentedKeyHash(presented);
  return acceptKey(ctx, key, await ctx.store.environments.findKeyByHash(key.hash));
}

/** A presented key's kind and the SHA-256 it is stored under. */
export interface PresentedKeyHash {
  kind: KeyKind;
  hash: string;
}

/** The kind and hash of a presented key. Throws invalid_api_key when it is not shaped like an importd key. */
export function presentedKeyHash(presented: string): PresentedKeyHash {
  const kind = keyKindOf(presented);
  if (!kind) throw new ServiceError('invalid_api_key', 'the API key is malformed');
  return { kind, hash: hashKey(presented) };
}

/** The principal of the key row read by the presented key's hash; throws invalid_api_key for a row that is missing or no longer valid. */
export async function acceptKey(ctx: ServiceContext, { kind, hash }: PresentedKeyHash, row: KeyCheckRow | undefined): Promise<AuthenticatedKey> {
  if (!row || !hashesEqual(row.hash, hash) || row.kind !== kind || !row.active || expired(ctx, row.expiresAt)) {
    throw new ServiceError('invalid_api_key', 'the API key is unknown or no longer active');
  }
  if (touchDue(ctx, row.id)) await ctx.store.environments.touchKey(row, isoTime(ctx.clock));
  return {
    kind: row.kind,
    keyId: row.id,
    accountId: row.accountId,
    environmentId: row.environmentId,
    allowedOrigins: row.allowedOrigins,
  };
}

/** A rolled key's grace period has ended. */
function expired(ctx: ServiceContext, expiresAt: string | null): boolean {
  return expiresAt !== null && expiresAt <= isoTime(ctx.clock);
}

/** Whether the key's lastUsedAt is due to be written (then counted as written): checked without awaiting anything. */
function touchDue(ctx: ServiceContext, keyId: string): boolean {
  const now = ctx.clock().getTime();
  if (now - (ctx.keyTouchedAt.get(keyId) ?? -Infinity) < TOUCH_INTERVAL_MS) return false;
  ctx.keyTouchedAt.set(keyId, now);
  return true;
}

/** Requires a key of one of the accepted kinds. Throws wrong_key_kind. */
export function requireKeyKind(key: KeyPrincipal, accepted: readonly KeyKind[]): void {
  if (!accepted.includes(key.kind)) {
    throw new ServiceError('wrong_key_kind', `this endpoint does not accept a ${key.kind} key`);
  }
}

/** A Public Key request must come from an allowed origin; returns the normalised origin. Throws origin_not_allowed. */
export function requireAllowedOrigin(key: AuthenticatedKey, originHeader: string | undefined): string {
  const origin = normalizeRequestOrigin(originHeader);
  if (!origin || !originAllowed(origin, key.allowedOrigins)) {
    throw new ServiceError('origin_not_allowed', 'the request origin is not allowed for this public key');
  }
  return origin;
}
