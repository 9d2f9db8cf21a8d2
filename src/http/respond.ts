import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';

// A response's headers are kept in a plain record until the response is built from it. Hono's `c.header()`
// keeps them in a WHATWG Headers object, which @hono/node-server then has to validate, sort and copy into a
// plain object for Node: about a third of a small GET's server CPU. A Response built with
// a plain record is written by node-server as it is.

/** The headers of the response being prepared, by their canonical names. */
export type HeaderRecord = Record<string, string>;

/** The headers a browser's script may read (CORS). */
const EXPOSED_HEADERS = 'X-Request-Id, ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';

const RESPONSE_HEADERS = 'responseHeaders';
const built = new WeakSet<Response>();

/** Starts a request's headers: the ones every answer carries (DESIGN.md "Errors": every response has X-Request-Id). */
export function startHeaders(c: Context, requestId: string): void {
  c.set(RESPONSE_HEADERS, commonHeaders(requestId));
}

/** A fresh record of the headers every answer carries. */
export function commonHeaders(requestId: string): HeaderRecord {
  return {
    'X-Request-Id': requestId,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  };
}

/**
 * Lets a page of `origin` read the answer and the headers it needs (CORS). Only an answer that allows an origin
 * exposes headers: a browser reads no other cross-origin answer at all.
 */
export function allowOrigin(c: Context, origin: string): void {
  setHeader(c, 'Access-Control-Allow-Origin', origin);
  setHeader(c, 'Access-Control-Expose-Headers', EXPOSED_HEADERS);
  varyOnOrigin(c);
}

/** Marks the answer as depending on the request's Origin (once, however many steps say so). */
export function varyOnOrigin(c: Context): void {
  if (!(headerOf(c, 'Vary') ?? '').split(/,\s*/).includes('Origin')) setHeader(c, 'Vary', 'Origin', { append: true });
}

/** Sets (or appends to) a header of the answer; once a handler has answered, of that answer. */
export function setHeader(c: Context, name: string, value: string, options?: { append?: boolean }): void {
  const pending = c.get(RESPONSE_HEADERS) as HeaderRecord | undefined;
  if (c.finalized || !pending) {
    if (options?.append) c.res.headers.append(name, value);
    else c.res.headers.set(name, value);
    return;
  }
  const previous = pending[name];
  pending[name] = options?.append && previous !== undefined ? `${previous}, ${value}` : value;
}

/** A header of the answer being prepared (set with setHeader), or of the answer already given. */
export function headerOf(c: Context, name: string): string | undefined {
  if (c.finalized) return c.res.headers.get(name) ?? undefined;
  return (c.get(RESPONSE_HEADERS) as HeaderRecord | undefined)?.[name];
}

/** The answer, with every header set so far. */
export function respond(c: Context, body: ConstructorParameters<typeof Response>[0], status: StatusCode, contentType?: string): Response {
  const headers = (c.get(RESPONSE_HEADERS) as HeaderRecord | undefined) ?? {};
  if (contentType !== undefined) headers['Content-Type'] = contentType;
  const response = new Response(body, { status, headers });
  built.add(response);
  return response;
}

/** `value` as a JSON answer (what c.json sends, typed the same way for the OpenAPI routes). */
export function respondJson<T, S extends ContentfulStatusCode>(c: Context, value: T, status: S): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  return respond(c, JSON.stringify(value), status, 'application/json') as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
}

/**
 * For an answer built some other way (Hono's own: c.json, streamSSE, HEAD, ...): adds the pending headers it
 * does not set itself.
 */
export function finishHeaders(c: Context): void {
  if (built.has(c.res)) return;
  const pending = c.get(RESPONSE_HEADERS) as HeaderRecord | undefined;
  if (!pending) return;
  const headers = c.res.headers;
  for (const name in pending) if (!headers.has(name)) headers.set(name, pending[name]!);
}

/** JSON text a service built in the route's documented shape (stored JSON spliced in), answered as that shape. */
export function jsonText<T>(c: Context, text: string): TypedResponse<T, 200, 'json'> {
  return respond(c, text, 200, 'application/json') as unknown as TypedResponse<T, 200, 'json'>;
}
