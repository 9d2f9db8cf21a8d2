import { Hono } from 'hono';
import { checkReadiness } from '../../services/health';
import type { AppDeps, AppEnv } from '../env';
import { respondJson } from '../respond';

/** Liveness and readiness, outside /v1 and without credentials. */
export function healthRoutes(deps: AppDeps) {
  const router = new Hono<AppEnv>();
  router.get('/healthz', (c) => respondJson(c, { status: 'ok' }, 200));
  router.get('/readyz', async (c) => {
    await checkReadiness(deps.ctx);
    return respondJson(c, { status: 'ready' }, 200);
  });
  return router;
}
