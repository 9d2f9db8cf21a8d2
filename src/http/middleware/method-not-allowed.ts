import type { Hono } from 'hono';
import { ServiceError } from '../../services/errors';

/** For a path that exists under other methods: the methods it has (for 405 and `Allow`). */
export function allowedMethodsOf(app: Hono<any>): (path: string) => string[] {
  let table: { pattern: RegExp; method: string }[] | undefined;
  return (path) => {
    table ??= app.routes
      .filter((route) => route.method !== 'ALL')
      .map((route) => ({
        method: route.method,
        // Exactly the paths the router serves (strict: no trailing slash), so a path it does not serve for any
        // method is a 404, never a 405 naming methods that would not reach a route either.
        pattern: new RegExp(`^${route.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\/:[^/]+/g, '/[^/]+')}$`),
      }));
    return [...new Set(table.filter((entry) => entry.pattern.test(path)).map((entry) => entry.method))];
  };
}

export function notFoundOrNotAllowed(allowed: string[]): ServiceError {
  if (allowed.length === 0) return new ServiceError('not_found', 'no such endpoint');
  return new ServiceError('method_not_allowed', `this endpoint accepts ${allowed.join(', ')}`);
}
