import type { Context, MiddlewareHandler } from 'hono';
import { keyKindOf } from '../core/keys';
import { authenticateKey, requireAllowedOrigin, requireKeyKind, verifySession, type Caller } from '../services/auth';
import type { ServiceContext } from '../services/context';
import { ServiceError } from '../services/errors';
import { clientAddress } from './client-address';
import type { AppEnv } from './env';
import { limitKeyRate } from './middleware/rate-limit';
import { allowOrigin, setHeader } from './respond';

/**
 * What each route accepts (DESIGN.md "Which credential each endpoint takes"):
 * - `secret`: the Secret Key only;
 * - `secret-or-public`: the Secret Key, or the Public Key from an allowed Origin;
 * - `secret-or-session`: the Secret Key, or the Public Key from an allowed Origin plus a session token
 *   (header `X-Session-Token`; a route may also accept it from the body, see `sessionFromBody`).
 */
export type Credential = 'secret' | 'secret-or-public' | 'secret-or-session';

export const SESSION_HEADER = 'X-Session-Token';
export const PUBLIC_KEY_HEADER = 'X-Public-Key';

/** A key as presented, and where: only the Authorization header may carry a Secret Key. */
export interface PresentedKey {
  value: string;
  from: 'authorization' | 'public-key';
}

export interface CredentialOptions {
  /**
   * When it holds for a request without a key header, the request goes on unauthenticated: the route reads
   * the key from its body (POST /imports `meta.publicKey`) and calls `authenticateRequest` itself.
   */
  keyInBody?: (c: Context<AppEnv>) => Promise<boolean>;
}

/** Authenticates the request for a route's credential and stores the caller in `c.var.caller`. */
export function requireCredential(ctx: ServiceContext, credential: Credential, options: CredentialOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const presented = presentedKey(c.req.header('Authorization'), c.req.header(PUBLIC_KEY_HEADER));
    if (presented || !(await options.keyInBody?.(c))) c.set('caller', await authenticateRequest(ctx, c, credential, presented));
    await next();
  };
}

/**
 * Checks a presented key for a route's credential, before the route acts: a known, active key (else 401), no
 * Secret Key from a browser (any `Origin`), the kind the route accepts, the Public Key's origin (whose allowance
 * is then sent), the rate limit, and a session token from the header when one is sent.
 */
export async function authenticateRequest(
  ctx: ServiceContext,
  c: Context<AppEnv>,
  credential: Credential,
  presented: PresentedKey | undefined,
): Promise<Caller> {
  if (!presented) {
    throw new ServiceError('missing_credentials', 'send a key as "Authorization: Bearer <key>" or in X-Public-Key (or meta.publicKey on POST /v1/imports from an allowed Origin)');
  }
  if (presented.from === 'public-key' && keyKindOf(presented.value) === 'secret') {
    throw new ServiceError('wrong_key_kind', 'X-Public-Key (and meta.publicKey) take a Public Key; a Secret Key goes in "Authorization: Bearer"');
  }
  const key = await authenticateKey(ctx, presented.value);
  // Servers send no Origin: a Secret Key with one is in page code, where everyone can read it.
  if (key.kind === 'secret' && c.req.header('Origin') !== undefined) {
    throw new ServiceError('secret_key_in_browser', 'a Secret Key must never be used from a browser: use the Public Key with a session token, and roll this Secret Key');
  }
  requireKeyKind(key, credential === 'secret' ? ['secret'] : ['secret', 'public']);
  const caller: Caller = { principal: key };
  if (key.kind === 'public') {
    caller.origin = requireAllowedOrigin(key, c.req.header('Origin'));
    allowOrigin(c, caller.origin);
  }
  // Counted only once the key is accepted for this request: a Public Key is public, so a request refused for its
  // kind or origin (from any page, or curl) must not use up what the key's end-users are allowed.
  await limitKeyRate(ctx, key, () => clientAddress(c, ctx.config.trustedProxies), (name, value) => setHeader(c, name, value));
  const token = key.kind === 'public' ? c.req.header(SESSION_HEADER) : undefined;
  if (token !== undefined) caller.session = await verifySession(ctx, token, key);
  return caller;
}

/**
 * For `secret-or-session` routes whose body may carry the session token (POST /imports `meta.sessionToken`):
 * a Public Key caller without a header token must present one here. Throws invalid_session.
 */
export async function sessionFromBody(ctx: ServiceContext, caller: Caller, token: unknown): Promise<Caller> {
  if (caller.principal.kind === 'secret' || caller.session) return caller;
  if (typeof token !== 'string' || token === '') {
    throw new ServiceError('invalid_session', 'a session token is required with a public key');
  }
  return { ...caller, session: await verifySession(ctx, token, caller.principal) };
}

/** The key a request presents in its headers, if any. Throws invalid_api_key for a malformed Authorization. */
export function presentedKey(authorization: string | undefined, publicKey: string | undefined): PresentedKey | undefined {
  if (authorization !== undefined) {
    // The scheme name is case-insensitive (RFC 9110 section 11.1).
    const match = /^bearer +([^\s]+)$/i.exec(authorization.trim());
    if (!match) throw new ServiceError('invalid_api_key', 'the Authorization header must be "Bearer <key>"');
    return { value: match[1]!, from: 'authorization' };
  }
  if (publicKey !== undefined) return { value: publicKey.trim(), from: 'public-key' };
  return undefined;
}
