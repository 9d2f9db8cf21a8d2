import { Hono } from 'hono';
import { checkReadiness } from '../../services/health';
import type { AppDeps, AppEnv } from '../env';

/** Liveness and readiness, outside /v1 and without credentials. */
export function healthRoutes(deps: AppDeps) {
  const router = new Hono<AppEnv>();
  router.get('/healthz', (c) => c.json({ status: 'ok' }));
  router.get('/readyz', async (c) => {
    await checkReadiness(deps.ctx);
    return c.json({ status: 'ready' });
  });
  return router;
}
