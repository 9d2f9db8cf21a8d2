import { mapHeaders, MapHeadersInput, MapHeadersOutput } from '../../services/mapping';
import type { AppDeps } from '../env';
import { createRouter, defineRoute } from '../route';
import { errorResponses, jsonBody, jsonResponse } from '../schemas';
import { respondJson } from '../respond';

export function mappingRoutes(deps: AppDeps) {
  const { ctx } = deps;
  const router = createRouter();

  const map = defineRoute(deps, 'secret-or-public', {
    method: 'post',
    path: '/intelligence/map-headers',
    tags: ['Intelligence'],
    operationId: 'mapHeaders',
    description:
      'Secret Key, or Public Key from an allowed Origin. Suggests, for each schema header, the file header that matches it with a confidence from 0 to 1; unmatched schema headers are left out and each file header is used at most once.',
    summary: "Map a file's column headers to a template's headers (offline matcher, optional LLM for unsure pairs)",
    request: { body: jsonBody(MapHeadersInput) },
    responses: {
      200: jsonResponse(MapHeadersOutput, 'One `{ fileKey, confidence }` per matched schema key; unmatched keys are left out'),
      ...errorResponses(400, 403, 413, 415),
    },
  });
  router.openapi(map, async (c) => respondJson(c, await mapHeaders(ctx, c.var.caller.principal.accountId, c.req.valid('json'), c.var.caller.session?.templateId), 200));

  return router;
}
