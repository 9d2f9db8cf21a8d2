import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { newRequestId } from '../core/ids';
import { credentialsEqual } from '../core/keys';
import { presentedKeyHash, type KeyPrincipal, type PresentedKeyHash } from '../services/auth';
import { ServiceError } from '../services/errors';
import { detailBytes, listRowsOf, secretKeyImport, secretKeyImportsJson, type JsonBody } from '../services/imports';
import { incomingClientAddress } from './client-address';
import { presentedKey, PUBLIC_KEY_HEADER } from './credentials';
import type { AppDeps } from './env';
import { errorAnswer, toServiceError, writeErrorAnswer } from './errors';
import { requestRecorder, whenAnswered } from './metrics/request-metrics';
import { logRequest, logsRequests } from './middleware/request-log';
import { limitKeyRate } from './middleware/rate-limit';
import { commonHeaders } from './respond';

// The hottest reads, GET /v1/imports/{id}, its rows page and the plain list of imports, answered without Hono:
// its router, context, four async middleware layers and Response objects cost about as much as the read itself
// (bench/read-ab.ts).
// The lane calls the same service functions and renders the same headers and JSON as the Hono routes
// (routes/imports.ts), and only takes the plain success case: anything else (another method or path, HEAD,
// an Origin, a body, a conditional or unusual request, a refused key, an unknown import, a bad cursor, ...)
// is handed to the Hono app untouched, before the lane has counted or answered anything.

/** The Hono routes these requests would take (metrics label them by route template). */
const ROUTES = { detail: '/v1/imports/:importId', rows: '/v1/imports/:importId/rows', list: '/v1/imports' } as const;

// An import id of the route's accepted length, in characters that need no decoding; query values likewise.
const READ_PATH = /^\/v1\/imports(?:\/([A-Za-z0-9_-]{1,100})(\/rows)?)?(?:\?(.*))?$/;
const PLAIN_VALUE = /^[A-Za-z0-9_-]*$/;
const ROWS_PARAMETERS = new Set(['limit', 'cursor', 'sortBy', 'direction']);
// The unfiltered list in its default order: a filter or a sort is left to Hono.
const LIST_PARAMETERS = new Set(['limit', 'cursor']);
// What node-server needs to build the request URL the Hono path would see (plainHost).
const PLAIN_HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$/;
// Keys this process refused past their rate limit, by hash, until their window ends (bounded: cleared past it).
const MAX_LIMITED_KEYS = 10_000;
// Headers whose presence changes what the Hono path answers or how (a Public Key among them): left to it.
const HANDED_OVER_HEADERS = new Set(['origin', 'content-length', 'transfer-encoding', 'if-none-match', 'if-modified-since', 'expect', PUBLIC_KEY_HEADER.toLowerCase()]);

/** Wraps the Hono app's Node listener with the lane for the hot reads. */
export function withFastLane(deps: AppDeps, hono: RequestListener): RequestListener {
  const { ctx, logger } = deps;
  const record = deps.metrics ? requestRecorder(deps.metrics) : undefined;
  const log = logsRequests(ctx.config.logLevel);
  // The lane reads before it counts (it counts only what it answers): a key past its limit would have its
  // page read for every 429. Once refused, the key's requests go to Hono until the window ends, which counts
  // and refuses them before reading anything, as for any key.
  const limitedUntil = new Map<string, number>();
  const limited = ({ hash }: PresentedKeyHash) => {
    if (limitedUntil.size === 0) return false;
    const until = limitedUntil.get(hash);
    if (until === undefined) return false;
    if (until > ctx.clock().getTime()) return true;
    limitedUntil.delete(hash);
    return false;
  };
  const refusedPastLimit = (presented: PresentedKeyHash, error: unknown) => {
    if (!(error instanceof ServiceError) || error.code !== 'rate_limited') return;
    if (limitedUntil.size >= MAX_LIMITED_KEYS) limitedUntil.clear();
    limitedUntil.set(presented.hash, ctx.clock().getTime() + (error.retryAfterSeconds ?? 1) * 1000);
  };

  async function answer(incoming: IncomingMessage, outgoing: ServerResponse, read: Read, key: PresentedKeyHash): Promise<void> {
    const started = performance.now();
    const served = await readOrUndefined(read, key);
    // Nothing counted or answered yet: the Hono path answers (and counts) whatever the lane does not take.
    if (!served) return hono(incoming, outgoing);
    const { text, key: principal } = served;
    const requestId = newRequestId();
    const headers = commonHeaders(requestId);
    let status: number;
    let body: JsonBody;
    // Counted last, once the answer is known to be a success: past the limit it is the lane's to answer.
    try {
      await limitKeyRate(ctx, principal, () => incomingClientAddress(incoming, ctx.config.trustedProxies), (name, value) => (headers[name] = value));
      status = 200;
      body = text;
    } catch (error) {
      refusedPastLimit(key, error);
      const refused = errorAnswer(toServiceError(error, logger, requestId), requestId);
      Object.assign(headers, refused.headers);
      status = refused.status;
      body = JSON.stringify(refused.body);
    }
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : byteLength(body));
    outgoing.writeHead(status, headers);
    if (typeof body === 'string') outgoing.end(body);
    else endWithPieces(outgoing, body);
    // Timed to the last byte, as the Hono path is.
    if (record) whenAnswered(outgoing, () => record('GET', ROUTES[read.kind], status, started));
    if (log) logRequest(logger, 'GET', read.path, status, started, requestId);
  }

  /** The read's JSON text for a Secret Key, or undefined for anything else (refused key, unknown import, bad query). */
  async function readOrUndefined(read: Read, presented: PresentedKeyHash): Promise<{ text: JsonBody; key: KeyPrincipal } | undefined> {
    try {
      if (read.kind === 'list') return await secretKeyImportsJson(ctx, presented, read.query);
      const { key, imported } = await secretKeyImport(ctx, presented, read.importId);
      return { text: read.kind === 'rows' ? await listRowsOf(ctx, key.accountId, imported, read.query) : detailBytes(imported), key };
    } catch {
      return undefined;
    }
  }

  return (incoming, outgoing) => {
    // The path first: a GET the lane does not serve (the embed script, the themes, ...) pays for one regular
    // expression, not a pass over its headers.
    const read = incoming.method === 'GET' ? plainRead(incoming.url ?? '') : undefined;
    const headers = read && laneHeaders(incoming.rawHeaders);
    const key = headers && plainHost(headers.host) && secretKeyOn(incoming.socket, headers.authorization);
    if (!read || !key || limited(key)) return hono(incoming, outgoing);
    answer(incoming, outgoing, read, key).catch((error: unknown) => {
      // Logged with its request id, answered in the one error shape (internal_error), as the app's onError does.
      const requestId = newRequestId();
      writeErrorAnswer(outgoing, toServiceError(error, logger, requestId), requestId);
    });
  };
}

function byteLength(pieces: readonly Uint8Array[]): number {
  let length = 0;
  for (const piece of pieces) length += piece.byteLength;
  return length;
}

/** Writes the pieces after the head without joining them first: corked, they leave in one write with the head (`strace -c`: one writev per request). */
function endWithPieces(outgoing: ServerResponse, pieces: readonly Uint8Array[]): void {
  outgoing.cork();
  for (let i = 0; i < pieces.length - 1; i++) outgoing.write(pieces[i]);
  outgoing.end(pieces[pieces.length - 1]);
  outgoing.uncork();
}

type Read = { path: string; query: Record<string, string> } & ({ kind: 'detail' | 'rows'; importId: string } | { kind: 'list' });

/**
 * Host and Authorization of a request the lane may take, in one pass over the raw headers (Node builds its
 * `headers` object on first use, for every header): undefined when a header the lane leaves to Hono is
 * present, or Host or Authorization is missing or repeated (Node keeps the first of repeated ones, the Hono
 * path sees repeated Authorization headers joined).
 */
function laneHeaders(raw: readonly string[]): { host: string; authorization: string } | undefined {
  let host: string | undefined;
  let authorization: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name === 'host') {
      if (host !== undefined) return undefined;
      host = raw[i + 1];
    } else if (name === 'authorization') {
      if (authorization !== undefined) return undefined;
      authorization = raw[i + 1];
    } else if (HANDED_OVER_HEADERS.has(name)) {
      return undefined;
    }
  }
  return host === undefined || authorization === undefined ? undefined : { host, authorization };
}

/** The read a plain request asks for, or undefined for anything the lane leaves to Hono. */
function plainRead(url: string): Read | undefined {
  const match = READ_PATH.exec(url);
  if (!match) return undefined;
  const [, importId, rows, search] = match;
  const path = search === undefined ? match[0] : match[0].slice(0, -(search.length + 1));
  if (importId === undefined) {
    const query = search === undefined ? {} : plainQuery(search, LIST_PARAMETERS);
    return query && { path, kind: 'list', query };
  }
  if (!rows) return search === undefined ? { path, kind: 'detail', importId, query: {} } : undefined;
  const query = search === undefined ? {} : plainQuery(search, ROWS_PARAMETERS);
  return query && { path, kind: 'rows', importId, query };
}

let lastPlainHost = '';
/**
 * A Host the Hono path reads as it is: node-server builds the request URL from it and refuses one `new URL`
 * refuses (`localhost:99999`) or rewrites (`127.1`), answered 400 by app-listener.ts. Clients send one Host
 * again and again: the last one found plain is remembered.
 */
function plainHost(host: string): boolean {
  if (host === lastPlainHost) return true;
  if (!PLAIN_HOST.test(host)) return false;
  try {
    if (new URL(`http://${host}`).host !== host.toLowerCase()) return false;
  } catch {
    return false;
  }
  lastPlainHost = host;
  return true;
}

/** The query's parameters, each one of `names` at most once with a value that needs no decoding; else undefined. */
function plainQuery(search: string, names: ReadonlySet<string>): Record<string, string> | undefined {
  const query: Record<string, string> = {};
  for (const pair of search.split('&')) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, at);
    const value = pair.slice(at + 1);
    if (at < 0 || !names.has(name) || name in query || !PLAIN_VALUE.test(value)) return undefined;
    query[name] = value;
  }
  return query;
}

// A backend sends one key on each of its keep-alive connections: its hash is computed once per connection
// (about 2 µs a request), and the plaintext is kept no longer than the connection that sent it. A proxy may
// send several clients' requests on one connection, so the header is compared in constant time.
const presentedOn = new WeakMap<Socket, { authorization: string; key: PresentedKeyHash }>();

/** The hashed Secret Key of an Authorization header (secretKeyOf), remembered for the connection it came on. */
function secretKeyOn(socket: Socket, authorization: string): PresentedKeyHash | undefined {
  const known = presentedOn.get(socket);
  if (known && credentialsEqual(known.authorization, authorization)) return known.key;
  const key = secretKeyOf(authorization);
  if (key !== undefined) presentedOn.set(socket, { authorization, key });
  return key;
}

/** The hashed Secret Key of a request that presents exactly one credential, in its one Authorization header. */
function secretKeyOf(authorization: string): PresentedKeyHash | undefined {
  try {
    const presented = presentedKey(authorization, undefined);
    // Only a well-formed one (presentedKeyHash refuses any other): a malformed key is Hono's to refuse.
    const key = presented && presentedKeyHash(presented.value);
    return key?.kind === 'secret' ? key : undefined;
  } catch (error) {
    if (error instanceof ServiceError) return undefined;
    throw error;
  }
}
