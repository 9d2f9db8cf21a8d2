import type { MiddlewareHandler } from 'hono';
import type { Logger, LogLevel } from '../../core/logger';
import type { AppEnv } from '../env';

/** One log line per request: method, path (never the query or headers), status, duration, request id. */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    logRequest(logger, c.req.method, c.req.path, c.res.status, started, c.var.requestId);
  };
}

/** The line of one request answered since `started` (performance.now()): the middleware's and the app listener's (app-listener.ts). */
export function logRequest(logger: Logger, method: string, path: string, status: number, started: number, requestId: string): void {
  logger.info('request', { method, path, status, durationMs: Math.round((performance.now() - started) * 100) / 100, requestId });
}

const LOGS_REQUESTS = new Set<LogLevel>(['debug', 'info']);

/** At a level above info the per-request line would be dropped anyway: then nothing is logged per request. */
export const logsRequests = (level: LogLevel) => LOGS_REQUESTS.has(level);
