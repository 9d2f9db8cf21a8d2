import { z } from '@hono/zod-openapi';
import { DeletedEndUser, DeletedImport, deleteEndUserData, deleteImport } from '../../services/compliance';
import type { AppDeps } from '../env';
import { createRouter, defineRoute } from '../route';
import { errorResponses, jsonResponse } from '../schemas';
import { respondJson } from '../respond';

/** Deletion on request: one end-user's data (GDPR/CCPA), or one import. */
export function complianceRoutes(deps: AppDeps) {
  const { ctx } = deps;
  const router = createRouter();

  const deleteEndUser = defineRoute(deps, 'secret', {
    method: 'delete',
    path: '/end-users/{endUserId}',
    tags: ['Compliance'],
    operationId: 'deleteEndUserData',
    description:
      "Secret Key. Deletes, in one transaction, every import (with all its rows) and every session token of the end-user in the key's account, and answers the counts (zeros when nothing was stored). Other accounts' data is never touched.",
    summary: "Delete every import (with its rows) and every session of an end-user in the key's account, atomically",
    request: { params: z.object({ endUserId: z.string().min(1).max(255) }) },
    responses: {
      200: jsonResponse(DeletedEndUser, 'What was deleted (zeros when nothing was stored)'),
      ...errorResponses(400),
    },
  });
  router.openapi(deleteEndUser, async (c) =>
    respondJson(c, await deleteEndUserData(ctx, c.var.caller.principal.accountId, c.req.valid('param').endUserId), 200),
  );

  const removeImport = defineRoute(deps, 'secret', {
    method: 'delete',
    path: '/imports/{importId}',
    tags: ['Imports'],
    operationId: 'deleteImport',
    description:
      'Secret Key. Deletes the import and all its rows. An import of another account, or one still being written, is 404.',
    summary: 'Delete an import and all its rows',
    request: { params: z.object({ importId: z.string().max(100) }) },
    responses: {
      200: jsonResponse(DeletedImport, 'The import and its rows are deleted'),
      ...errorResponses(404),
    },
  });
  router.openapi(removeImport, async (c) => respondJson(c, await deleteImport(ctx, c.var.caller.principal.accountId, c.req.valid('param').importId), 200));

  return router;
}
