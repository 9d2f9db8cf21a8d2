import { z } from '@hono/zod-openapi';
import {
  createTemplate,
  CreateTemplateInput,
  getTemplate,
  GetTemplateInput,
  listTemplates,
  ListTemplatesInput,
  Template,
  TemplatePage,
  updateTemplate,
  UpdateTemplateInput,
} from '../../services/templates';
import type { AppDeps } from '../env';
import { createRouter, defineRoute } from '../route';
import { errorResponses, jsonBody, jsonResponse } from '../schemas';
import { respondJson } from '../respond';

const TemplateId = z.object({ id: z.string().openapi({ description: 'template id (UUIDv7)' }) });

export function templateRoutes(deps: AppDeps) {
  const { ctx } = deps;
  const router = createRouter();

  const create = defineRoute(deps, 'secret', {
    method: 'post',
    path: '/templates',
    tags: ['Templates'],
    operationId: 'createTemplate',
    description:
      "Secret Key. Creates a template in the key's account; `key` defaults to `schema.key` and is unique in the account (409 when taken).",
    summary: 'Create a template; its key is `key`, else `schema.key`, unique in the account',
    request: { body: jsonBody(CreateTemplateInput) },
    responses: { 201: jsonResponse(Template, 'The template'), ...errorResponses(400, 409, 413, 415) },
  });
  router.openapi(create, async (c) => respondJson(c, await createTemplate(ctx, c.var.caller.principal.accountId, c.req.valid('json')), 201));

  const list = defineRoute(deps, 'secret', {
    method: 'get',
    path: '/templates',
    tags: ['Templates'],
    operationId: 'listTemplates',
    description:
      "Secret Key. One keyset page of the account's templates without their schemas, ordered by createdAt or updatedAt.",
    summary: "List the account's templates (without schemas), keyset-paginated",
    request: { query: ListTemplatesInput },
    responses: { 200: jsonResponse(TemplatePage, 'A page of templates'), ...errorResponses(400) },
  });
  router.openapi(list, async (c) => respondJson(c, await listTemplates(ctx, c.var.caller.principal.accountId, c.req.valid('query')), 200));

  const get = defineRoute(deps, 'secret-or-public', {
    method: 'get',
    path: '/templates/{id}',
    tags: ['Templates'],
    operationId: 'getTemplate',
    description:
      "Secret Key, or Public Key from an allowed Origin. The template with its full schema; another account's template is 404. `?format=frictionless` gives a declared template's schema as a Frictionless Table Schema (409 conflict for a free-form template, which has no fields).",
    summary: 'Read a template with its full schema (Secret Key, or Public Key from an allowed origin)',
    request: { params: TemplateId, query: GetTemplateInput },
    responses: { 200: jsonResponse(Template, 'The template'), ...errorResponses(400, 404, 409) },
  });
  router.openapi(get, async (c) =>
    respondJson(c, await getTemplate(ctx, c.var.caller.principal.accountId, c.req.valid('param').id, c.req.valid('query')), 200),
  );

  const update = defineRoute(deps, 'secret', {
    method: 'put',
    path: '/templates/{id}',
    tags: ['Templates'],
    operationId: 'updateTemplate',
    description:
      'Secret Key. Replaces the schema and, when given, the key, metadata and source. Imports already stored keep the schema they were made with.',
    summary: 'Replace the schema; change key, metadata, source when given. Existing imports keep their snapshot',
    request: { params: TemplateId, body: jsonBody(UpdateTemplateInput) },
    responses: { 200: jsonResponse(Template, 'The updated template'), ...errorResponses(400, 404, 409, 413, 415) },
  });
  router.openapi(update, async (c) =>
    respondJson(c, await updateTemplate(ctx, c.var.caller.principal.accountId, c.req.valid('param').id, c.req.valid('json')), 200),
  );

  return router;
}
