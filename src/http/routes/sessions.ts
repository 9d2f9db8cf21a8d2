import { z } from '@hono/zod-openapi';
import { IssuedSession, IssueSessionInput, issueSession, RevokedSession, revokeSession } from '../../services/sessions';
import type { AppDeps } from '../env';
import { createRouter, defineRoute } from '../route';
import { errorResponses, jsonBody, jsonResponse } from '../schemas';
import { respondJson } from '../respond';

export function sessionRoutes(deps: AppDeps) {
  const { ctx } = deps;
  const router = createRouter();

  const issue = defineRoute(deps, 'secret', {
    method: 'post',
    path: '/sessions',
    tags: ['Sessions'],
    operationId: 'createSession',
    description:
      'Secret Key. Issues a signed session token (JWT) for an end-user, valid with the Public Key of the same environment until `expiresAt` or until revoked; optionally bound to a template.',
    summary: 'Issue a session token for an end-user of the Secret Key’s environment',
    request: { body: jsonBody(IssueSessionInput) },
    responses: {
      201: jsonResponse(IssuedSession, 'The session token and its expiry'),
      ...errorResponses(400, 404, 413, 415),
    },
  });
  router.openapi(issue, async (c) => respondJson(c, await issueSession(ctx, c.var.caller.principal, c.req.valid('json')), 201));

  const revoke = defineRoute(deps, 'secret', {
    method: 'delete',
    path: '/sessions/{jti}',
    tags: ['Sessions'],
    operationId: 'revokeSession',
    description:
      'Secret Key. Revokes the session token whose `jti` claim is given, so it is refused from now on; repeating it answers the same `revokedAt`.',
    summary: 'Revoke a session token by its jti',
    request: { params: z.object({ jti: z.string().max(100) }) },
    responses: {
      200: jsonResponse(RevokedSession, 'The session is revoked'),
      ...errorResponses(404),
    },
  });
  router.openapi(revoke, async (c) => respondJson(c, await revokeSession(ctx, c.var.caller.principal.accountId, c.req.valid('param').jti), 200));

  return router;
}
