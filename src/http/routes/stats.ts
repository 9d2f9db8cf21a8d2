import { statsOverview, StatsOverview } from '../../services/stats';
import type { AppDeps } from '../env';
import { createRouter, defineRoute } from '../route';
import { errorResponses, jsonResponse } from '../schemas';
import { respondJson } from '../respond';

export function statsRoutes(deps: AppDeps) {
  const router = createRouter();
  const overview = defineRoute(deps, 'secret', {
    method: 'get',
    path: '/stats/overview',
    tags: ['Statistics'],
    operationId: 'getStatsOverview',
    description:
      'Secret Key. The number of templates and of complete imports in the account, and its 5 newest imports.',
    summary: "The account's totals and its 5 newest imports",
    responses: { 200: jsonResponse(StatsOverview, 'The overview'), ...errorResponses() },
  });
  router.openapi(overview, async (c) => respondJson(c, await statsOverview(deps.ctx, c.var.caller.principal.accountId), 200));
  return router;
}
