import { randomBytes } from 'node:crypto';
import { newId } from '../../core/ids';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { MAX_SESSION_SECONDS, type RotatedSessionSecret } from '../sessions/schemas';

/**
 * The session signing secrets kept in the database, newest last. The first secret (the one generated on first
 * start, `ctx.sessionSecret`) has no `kid`: tokens signed before any rotation carry none. A retired secret
 * keeps verifying for as long as a token signed with it can live, then is dropped at the next rotation.
 */
interface StoredSecret {
  kid: string | null;
  secret: string;
  retiredAt: string | null;
}

const KEYRING_SETTING = 'session_keys';
const encoder = new TextEncoder();

export interface SigningKey {
  kid: string | null;
  secret: Uint8Array;
}

// Read on every use (one primary-key lookup) rather than cached: `importd session rotate-secret` runs in
// another process while `serve` runs, and both must sign with the newest secret at once.
async function keyring(ctx: ServiceContext): Promise<StoredSecret[]> {
  return parseKeyring(ctx, await ctx.store.settings.read(KEYRING_SETTING));
}

function parseKeyring(ctx: ServiceContext, stored: string | undefined): StoredSecret[] {
  if (stored !== undefined) return JSON.parse(stored) as StoredSecret[];
  return [{ kid: null, secret: new TextDecoder().decode(ctx.sessionSecret), retiredAt: null }];
}

/** The secret new session tokens are signed with (IMPORTD_SESSION_SECRET when it is set). */
export async function currentSigningKey(ctx: ServiceContext): Promise<SigningKey> {
  if (ctx.config.sessionSecret !== undefined) return { kid: null, secret: ctx.sessionSecret };
  const current = (await keyring(ctx)).at(-1)!;
  return { kid: current.kid, secret: encoder.encode(current.secret) };
}

/** The secret a token with this `kid` (header) verifies with, or undefined when none may verify it any more. */
export async function verificationSecret(ctx: ServiceContext, kid: string | undefined): Promise<Uint8Array | undefined> {
  if (ctx.config.sessionSecret !== undefined) return kid === undefined ? ctx.sessionSecret : undefined;
  const oldest = oldestValidRetirement(ctx);
  const entry = (await keyring(ctx)).find((key) => key.kid === (kid ?? null) && (key.retiredAt === null || key.retiredAt > oldest));
  return entry && encoder.encode(entry.secret);
}

/**
 * Adds a new signing secret (new tokens carry its `kid`); tokens signed with the previous ones stay valid until
 * they expire. Secrets retired longer ago than the longest token lifetime are dropped. Throws conflict when
 * IMPORTD_SESSION_SECRET is set: that secret is the operator's to change.
 */
export async function rotateSessionSecret(ctx: ServiceContext): Promise<RotatedSessionSecret> {
  if (ctx.config.sessionSecret !== undefined) {
    throw new ServiceError(
      'conflict',
      'IMPORTD_SESSION_SECRET is set, so session tokens are signed with it and nothing in the database is used: ' +
        'change its value to rotate (tokens signed with the old value are refused at once), or unset it to use rotatable secrets kept in the database',
    );
  }
  const now = ctx.clock();
  const rotatedAt = now.toISOString();
  const kid = newId();
  await ctx.store.settings.modify(KEYRING_SETTING, (stored) => {
    const oldest = oldestValidRetirement(ctx);
    const kept = parseKeyring(ctx, stored)
      .filter((key) => key.retiredAt === null || key.retiredAt > oldest)
      .map((key) => (key.retiredAt === null ? { ...key, retiredAt: rotatedAt } : key));
    const fresh: StoredSecret = { kid, secret: randomBytes(48).toString('base64url'), retiredAt: null };
    return JSON.stringify([...kept, fresh]);
  });
  return { kid, rotatedAt, previousValidUntil: new Date(now.getTime() + MAX_SESSION_SECONDS * 1000).toISOString() };
}

function oldestValidRetirement(ctx: ServiceContext): string {
  return new Date(ctx.clock().getTime() - MAX_SESSION_SECONDS * 1000).toISOString();
}
