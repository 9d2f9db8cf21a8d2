import type { MiddlewareHandler } from 'hono';
import { originAllowedByAnyKey } from '../../services/auth';
import type { ServiceContext } from '../../services/context';
import { ServiceError } from '../../services/errors';
import type { AppEnv } from '../env';
import { allowOrigin, headerOf, respond, setHeader, varyOnOrigin } from '../respond';

// Besides the API's own headers, the tracing headers that OpenTelemetry and Sentry browser set-ups add to
// every fetch: a preflight refusing them would break every SDK call on such pages.
const ALLOWED_HEADERS =
  'Authorization, Content-Type, X-Public-Key, X-Session-Token, If-None-Match, traceparent, tracestate, baggage, sentry-trace, ' +
  // tus (resumable uploads, /v1/uploads).
  'Tus-Resumable, Upload-Length, Upload-Metadata, Upload-Offset, Upload-Defer-Length, Upload-Concat, Upload-Checksum, X-HTTP-Method-Override, X-Requested-With';

/**
 * Answers CORS preflights. They carry no key, so one is answered for an origin allowed by any active Public
 * Key of this server; the real request is then checked against the key it presents.
 */
export function corsPreflight(ctx: ServiceContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'OPTIONS') return next();
    varyOnOrigin(c);
    const origin = await originAllowedByAnyKey(ctx, c.req.header('Origin'));
    if (!origin) throw new ServiceError('origin_not_allowed', 'the request origin is not allowed by any public key');
    allowOrigin(c, origin);
    setHeader(c, 'Access-Control-Allow-Methods', 'GET, HEAD, POST, PUT, PATCH, DELETE');
    setHeader(c, 'Access-Control-Allow-Headers', ALLOWED_HEADERS);
    setHeader(c, 'Access-Control-Max-Age', '600');
    return respond(c, null, 204);
  };
}

// Answers that can come before the key's own origin check: bad JSON, an unknown or missing key, a body over
// the limit, the rate limit. Any other error comes after the check and has its allowance already, or none.
const EARLY_ERROR_STATUSES = new Set([400, 401, 413, 429]);

/**
 * Lets a browser read the errors answered before the key is known, when some Public Key allows the origin
 * (DESIGN.md "Credentials"); never for an origin no key allows.
 */
export function corsOnEarlyErrors(ctx: ServiceContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (!EARLY_ERROR_STATUSES.has(c.res.status) || headerOf(c, 'Access-Control-Allow-Origin') !== undefined) return;
    const origin = await originAllowedByAnyKey(ctx, c.req.header('Origin'));
    if (!origin) return;
    allowOrigin(c, origin);
  };
}
