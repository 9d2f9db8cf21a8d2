import { z } from '@hono/zod-openapi';
import { approveImport, ImportDetail, rejectImport, ReviewImportInput } from '../../services/imports';
import type { AppDeps } from '../env';
import { detailJson } from '../import-json';
import { jsonText } from '../respond';
import { createRouter, defineRoute } from '../route';
import { errorResponses, jsonResponse } from '../schemas';

const ImportParams = z.object({ importId: z.string().max(100) });

/** The body is optional: no body, `{}` and `{ "reason": ... }` are the same request but for the reason. */
const optionalBody = { required: false, content: { 'application/json': { schema: ReviewImportInput } } };

/** POST /imports/{id}/approve and /reject: a Secret Key holder's decision on an import pending review. */
export function importReviewRoutes(deps: AppDeps) {
  const { ctx } = deps;
  const router = createRouter();
  const decisions = [
    {
      verb: 'approve',
      decide: approveImport,
      operationId: 'approveImport',
      summary: 'Approve an import pending review: it counts from now on',
      description:
        'Secret Key. An import into a template with `review: "required"` is stored `pending_review`; approving it makes it `completed` (applied, atomically: of two concurrent approvals one wins, the other answers 409 import_not_pending) and sends `import.completed` and `import.approved`. 409 import_not_pending for an import already completed or rejected; 404 for another account\'s.',
    },
    {
      verb: 'reject',
      decide: rejectImport,
      operationId: 'rejectImport',
      summary: 'Reject an import pending review: it never counts',
      description:
        'Secret Key. Makes an import pending review `rejected` and sends `import.rejected` with the reason; its rows stay readable until it is deleted. 409 import_not_pending for an import already completed or rejected; 404 for another account\'s.',
    },
  ] as const;
  for (const { verb, decide, ...docs } of decisions) {
    const route = defineRoute(deps, 'secret', {
      method: 'post',
      path: `/imports/{importId}/${verb}`,
      tags: ['Imports'],
      ...docs,
      request: { params: ImportParams, body: optionalBody },
      responses: { 200: jsonResponse(ImportDetail, 'The import as the decision left it (detail shape)'), ...errorResponses(400, 404, 409) },
    });
    router.openapi(route, async (c) => {
      const reviewed = await decide(ctx, c.var.caller.principal.accountId, c.req.valid('param').importId, c.req.valid('json') ?? {});
      return jsonText(c, detailJson(reviewed));
    });
  }
  return router;
}
