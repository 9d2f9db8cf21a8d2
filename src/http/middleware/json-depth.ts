import type { MiddlewareHandler } from 'hono';
import { validationFailed } from '../../services/errors';
import { jsonTextDeeperThan } from '../../services/limits';
import { JSON_TYPE } from '../body';
import type { AppEnv } from '../env';

/**
 * Refuses a JSON body that nests arrays and objects deeper than `maxDepth` with 400 validation_failed,
 * before anything parses it: zod and JSON.stringify recurse, so an absurdly deep value would otherwise
 * exhaust the stack (a 500). The text is read through hono's body cache, so the route's validator reuses it.
 * POST /v1/imports checks its own members (body.ts and the parse worker), as it never holds its body as one text.
 */
export function jsonDepthLimit(maxDepth: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || !JSON_TYPE.test(c.req.header('Content-Type') ?? '')) return next();
    if (c.req.method === 'POST' && c.req.path === '/v1/imports') return next();
    if (jsonTextDeeperThan(await c.req.text(), maxDepth)) {
      throw validationFailed([{ path: '', message: `the body nests arrays and objects more than ${maxDepth} levels deep` }]);
    }
    return next();
  };
}
