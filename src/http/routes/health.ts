import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../env';

/** Liveness and readiness, outside /v1 and without credentials. */
export function healthRoutes(deps: AppDeps) {
  const router = new Hono<AppEnv>();
  router.get('/healthz', (c) => c.json({ status: 'ok' }));
  router.get('/readyz', (c) => {
    deps.ctx.sqlite.prepare('SELECT 1').get();
    return c.json({ status: 'ready' });
  });
  return router;
}
