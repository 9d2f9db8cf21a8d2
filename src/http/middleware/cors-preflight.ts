import type { MiddlewareHandler } from 'hono';
import { normalizeRequestOrigin, originAllowed } from '../../core/origins';
import { allActiveOrigins } from '../../db/queries/environments';
import type { ServiceContext } from '../../services/context';
import { ServiceError } from '../../services/errors';
import type { AppEnv } from '../env';

const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Public-Key, X-Session-Token, If-None-Match';
export const EXPOSED_HEADERS = 'X-Request-Id, ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';

/**
 * Answers CORS preflights. They carry no key, so one is answered for an origin allowed by any active Public
 * Key of this server; the real request is then checked against the key it presents.
 */
export function corsPreflight(ctx: ServiceContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'OPTIONS') return next();
    c.header('Vary', 'Origin', { append: true });
    const origin = normalizeRequestOrigin(c.req.header('Origin'));
    if (!origin || !allActiveOrigins(ctx.db).some((allowed) => originAllowed(origin, allowed))) {
      throw new ServiceError('origin_not_allowed', 'the request origin is not allowed by any public key');
    }
    c.header('Access-Control-Allow-Origin', origin);
    c.header('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
    c.header('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    c.header('Access-Control-Max-Age', '600');
    return c.body(null, 204);
  };
}
