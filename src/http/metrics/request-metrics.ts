import type { ServerResponse } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Histogram } from 'prom-client';
import { nodeBindings, type AppEnv } from '../env';
import type { ImportdMetrics } from './registry';

/** The label of requests no route handles (unknown paths, preflights): one value, whatever the path. */
export const UNMATCHED_ROUTE = 'unmatched';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const IMPORT_ROUTE = '/v1/imports';
/** The status of a request whose client went away before its body arrived (app.ts). */
export const CLIENT_CLOSED = 499;

/**
 * Times every request to the last byte of its answer and counts it by method, route TEMPLATE
 * (`/v1/imports/:importId`, never the raw path, so label values are bounded by the routes the app has) and status. Children are cached per label set:
 * the per-request cost is one map lookup and one observe.
 */
export function requestMetrics(metrics: ImportdMetrics): MiddlewareHandler<AppEnv> {
  const record = requestRecorder(metrics);
  return async (c, next) => {
    const started = performance.now();
    await next();
    const method = c.req.method;
    const route = routeTemplate(c);
    const status = c.res.status;
    // The body is written after this returns and may stream on (exports, theme events).
    whenAnswered(nodeBindings(c).outgoing, () => record(method, route, status, started));
  };
}

/**
 * Runs `done` once the answer has left: its last byte written, or the client gone. At once when it already
 * has, or when there is no socket (in process, `app.request()`: the answer's head).
 */
export function whenAnswered(outgoing: ServerResponse | undefined, done: () => void): void {
  if (outgoing && !outgoing.destroyed && !outgoing.writableFinished) outgoing.once('close', done);
  else done();
}

/** Counts and times one request answered since `started` (performance.now()): the middleware's and the app listener's (app-listener.ts). */
export function requestRecorder(metrics: ImportdMetrics): (method: string, route: string, status: number, started: number) => void {
  const children = new Map<string, Histogram.Internal<'method' | 'route' | 'status'>>();
  return (requestMethod, route, status, started) => {
    const seconds = (performance.now() - started) / 1000;
    const method = METHODS.has(requestMethod) ? requestMethod : 'OTHER';
    const key = `${method} ${route} ${status}`;
    let child = children.get(key);
    if (!child) children.set(key, (child = metrics.requestDuration.labels(method, route, String(status))));
    child.observe(seconds);
    if (status === 429) metrics.rateLimited.inc();
    if (route === IMPORT_ROUTE && method === 'POST') {
      const outcome = status < 300 ? 'completed' : status === CLIENT_CLOSED ? 'abandoned' : status < 500 ? 'rejected' : 'failed';
      metrics.importsByOutcome.inc({ outcome });
    }
  };
}

/**
 * The path of the route the request was for; middleware registered with `use` (method ALL) is no route.
 * Matched up front, so a request a middleware answered (a body too large) still names its route.
 */
function routeTemplate(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string {
  return matchedRoutes(c).find((route) => route.method !== 'ALL')?.path ?? UNMATCHED_ROUTE;
}
