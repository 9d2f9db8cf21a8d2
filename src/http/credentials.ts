import type { Context, MiddlewareHandler } from 'hono';
import { authenticateKey, requireAllowedOrigin, requireKeyKind, verifySession, type Caller } from '../services/auth';
import type { ServiceContext } from '../services/context';
import { ServiceError } from '../services/errors';
import type { AppEnv } from './env';
import { rateLimiterOf } from './middleware/rate-limit';

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

/** Authenticates the request for a route's credential and stores the caller in `c.var.caller`. */
export function requireCredential(ctx: ServiceContext, credential: Credential): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = authenticateKey(ctx, presentedKey(c));
    // Counted per key once the key is known, before any other check, so every authenticated answer has the headers.
    rateLimiterOf(ctx).hit(c, key.keyId);
    requireKeyKind(key, credential === 'secret' ? ['secret'] : ['secret', 'public']);
    const caller: Caller = { principal: key };
    if (key.kind === 'public') {
      caller.origin = requireAllowedOrigin(key, c.req.header('Origin'));
      c.header('Access-Control-Allow-Origin', caller.origin);
      c.header('Vary', 'Origin', { append: true });
      const token = c.req.header(SESSION_HEADER);
      if (token !== undefined) caller.session = await verifySession(ctx, token, key);
    }
    c.set('caller', caller);
    await next();
  };
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

function presentedKey(c: Context): string {
  const authorization = c.req.header('Authorization');
  if (authorization !== undefined) {
    const match = /^Bearer ([^\s]+)$/.exec(authorization.trim());
    if (!match) throw new ServiceError('invalid_api_key', 'the Authorization header must be "Bearer <key>"');
    return match[1]!;
  }
  const publicKey = c.req.header(PUBLIC_KEY_HEADER);
  if (publicKey !== undefined) return publicKey.trim();
  throw new ServiceError('missing_credentials', 'send a key as "Authorization: Bearer <key>" or in X-Public-Key');
}
