import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../core/logger';
import type { AppEnv } from '../env';

/** One log line per request: method, path (never the query or headers), status, duration, request id. */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    logger.info('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      requestId: c.var.requestId,
    });
  };
}
