import { z } from '@hono/zod-openapi';
import {
  createEnvironment,
  CreatedEnvironment,
  CreateEnvironmentInput,
  EnvironmentView,
  listEnvironments,
  RolledKey,
  rollEnvironmentKey,
  RollKeyInput,
  updateEnvironment,
  updateEnvironmentOrigins,
  UpdateEnvironmentInput,
  UpdateOriginsInput,
  type EnvironmentScope,
} from '../../services/environments';
import type { KeyPrincipal } from '../../services/auth';
import type { AppDeps } from '../env';
import { createRouter, defineRoute } from '../route';
import { errorResponses, jsonBody, jsonResponse } from '../schemas';
import { respondJson } from '../respond';

export function environmentRoutes(deps: AppDeps) {
  const { ctx } = deps;
  const router = createRouter();

  const create = defineRoute(deps, 'secret', {
    method: 'post',
    path: '/environments',
    tags: ['Environments'],
    operationId: 'createEnvironment',
    description:
      "Secret Key. Creates an environment in the key's account with a new Secret Key and Public Key; their values appear in this answer only (stored as hashes). 409 conflict when the name is taken, 409 limit_reached when the account has IMPORTD_MAX_ENVIRONMENTS_PER_ACCOUNT environments.",
    summary: 'Create an environment with a Secret Key and a Public Key (key values are returned only here)',
    request: { body: jsonBody(CreateEnvironmentInput) },
    responses: {
      201: jsonResponse(CreatedEnvironment, 'The environment and both key values'),
      ...errorResponses(400, 409, 413, 415),
    },
  });
  router.openapi(create, async (c) => respondJson(c, await createEnvironment(ctx, c.var.caller.principal.accountId, c.req.valid('json')), 201));

  const updateOrigins = defineRoute(deps, 'secret', {
    method: 'patch',
    path: '/environments/{name}/origins',
    tags: ['Environments'],
    operationId: 'updateEnvironmentOrigins',
    description:
      "Secret Key. Replaces the list of origins the environment's Public Key is accepted from: `https://<domain>`, `https://*.<domain>` or `http://localhost:<port>`.",
    summary: "Replace the allowed origins of the environment's Public Key",
    request: {
      params: z.object({ name: z.string() }),
      body: jsonBody(UpdateOriginsInput),
    },
    responses: {
      200: jsonResponse(EnvironmentView, 'The environment, without key values'),
      ...errorResponses(400, 404, 413, 415),
    },
  });
  router.openapi(updateOrigins, async (c) =>
    respondJson(c, await updateEnvironmentOrigins(ctx, ownEnvironment(c.var.caller.principal), c.req.valid('param').name, c.req.valid('json')), 200),
  );

  const update = defineRoute(deps, 'secret', {
    method: 'patch',
    path: '/environments/{name}',
    tags: ['Environments'],
    operationId: 'updateEnvironment',
    description:
      "Secret Key. Changes the environment's settings: `autoCreateTemplates` lets imports sent with its Public Key and a session create a template for a key the account does not have (off by default; otherwise they answer 403 template_not_allowed). A Secret Key changes only its own environment: any other name answers 404.",
    summary: "Change the environment's settings",
    request: {
      params: z.object({ name: z.string() }),
      body: jsonBody(UpdateEnvironmentInput),
    },
    responses: {
      200: jsonResponse(EnvironmentView, 'The environment, without key values'),
      ...errorResponses(400, 404, 413, 415),
    },
  });
  router.openapi(update, async (c) =>
    respondJson(c, await updateEnvironment(ctx, ownEnvironment(c.var.caller.principal), c.req.valid('param').name, c.req.valid('json')), 200),
  );

  const roll = defineRoute(deps, 'secret', {
    method: 'post',
    path: '/environments/{name}/keys/roll',
    operationId: 'rollEnvironmentKey',
    tags: ['Environments'],
    summary: "Roll one of the environment's keys",
    description:
      'Creates a new Secret Key or Public Key for the environment (its value is returned only here) and ' +
      'deactivates the previous one at once, or after `expireOldInSeconds` (at most 604800, 7 days). A new ' +
      'Public Key keeps the allowed origins. A Secret Key can roll only its own environment\'s keys: any other ' +
      'name answers 404.',
    request: {
      params: z.object({ name: z.string() }),
      body: jsonBody(RollKeyInput),
    },
    responses: {
      201: jsonResponse(RolledKey, 'The new key with its value, and when the previous one stops working'),
      ...errorResponses(400, 404, 413, 415),
    },
  });
  router.openapi(roll, async (c) =>
    respondJson(c, await rollEnvironmentKey(ctx, ownEnvironment(c.var.caller.principal), c.req.valid('param').name, c.req.valid('json')), 201),
  );

  const list = defineRoute(deps, 'secret', {
    method: 'get',
    path: '/environments',
    tags: ['Environments'],
    operationId: 'listEnvironments',
    description:
      "Secret Key. Every environment of the key's account with its keys' display prefixes, allowed origins and last use; key values are never shown again.",
    summary: "List the account's environments (key prefixes only)",
    responses: {
      200: jsonResponse(z.object({ data: z.array(EnvironmentView) }), 'The environments'),
      ...errorResponses(),
    },
  });
  router.openapi(list, async (c) => respondJson(c, { data: await listEnvironments(ctx, c.var.caller.principal.accountId) }, 200));

  return router;
}

/** A Secret Key manages only its own environment's configuration. */
function ownEnvironment(principal: KeyPrincipal): EnvironmentScope {
  return { accountId: principal.accountId, ownEnvironmentId: principal.environmentId };
}
