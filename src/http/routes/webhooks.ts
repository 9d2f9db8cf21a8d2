import { z } from '@hono/zod-openapi';
import type { KeyPrincipal } from '../../services/auth';
import {
  CreatedWebhook,
  createWebhook,
  CreateWebhookInput,
  DeletedWebhook,
  deleteWebhook,
  listDeliveries,
  ListDeliveriesInput,
  listWebhooks,
  ListWebhooksInput,
  redeliverEvent,
  Redelivered,
  WebhookDeliveryPage,
  WebhookPage,
} from '../../services/webhooks';
import type { AppDeps } from '../env';
import { createRouter, defineRoute } from '../route';
import { errorResponses, jsonBody, jsonResponse } from '../schemas';
import { respondJson } from '../respond';

const WebhookId = z.object({ id: z.string().max(100).openapi({ description: 'webhook id (UUIDv7)' }) });
const DeliveryId = WebhookId.extend({ eventId: z.string().max(100).openapi({ description: 'event id (the `webhook-id` header)' }) });

/** A Secret Key manages its own environment's webhooks only (DESIGN.md "Tenancy"). */
const own = (principal: KeyPrincipal) => ({ accountId: principal.accountId, environmentId: principal.environmentId });

/** Webhook endpoints of the key's environment and their delivery logs. */
export function webhookRoutes(deps: AppDeps) {
  const { ctx } = deps;
  const router = createRouter();

  const create = defineRoute(deps, 'secret', {
    method: 'post',
    path: '/webhooks',
    tags: ['Webhooks'],
    operationId: 'createWebhook',
    description:
      "Secret Key. Registers an endpoint in the key's environment for `events` (default: all). The URL must be https to a public address. The answer carries the signing secret (`whsec_...`), shown only once.",
    summary: "Register a webhook endpoint in the key's environment; its signing secret is shown once",
    request: { body: jsonBody(CreateWebhookInput) },
    responses: { 201: jsonResponse(CreatedWebhook, 'The endpoint with its secret'), ...errorResponses(400, 413, 415) },
  });
  router.openapi(create, async (c) => respondJson(c, await createWebhook(ctx, own(c.var.caller.principal), c.req.valid('json')), 201));

  const list = defineRoute(deps, 'secret', {
    method: 'get',
    path: '/webhooks',
    tags: ['Webhooks'],
    operationId: 'listWebhooks',
    description: "Secret Key. One keyset page of the key's environment's endpoints, newest first, without secrets; a disabled one says why.",
    summary: "List the environment's webhook endpoints (without secrets), keyset-paginated",
    request: { query: ListWebhooksInput },
    responses: { 200: jsonResponse(WebhookPage, 'A page of endpoints'), ...errorResponses(400) },
  });
  router.openapi(list, async (c) => respondJson(c, await listWebhooks(ctx, own(c.var.caller.principal), c.req.valid('query')), 200));

  const remove = defineRoute(deps, 'secret', {
    method: 'delete',
    path: '/webhooks/{id}',
    tags: ['Webhooks'],
    operationId: 'deleteWebhook',
    description: "Secret Key. Removes the endpoint and its delivery log; nothing more is sent to it. Another environment's endpoint is 404.",
    summary: 'Remove a webhook endpoint and its delivery log',
    request: { params: WebhookId },
    responses: { 200: jsonResponse(DeletedWebhook, 'The endpoint is removed'), ...errorResponses(404) },
  });
  router.openapi(remove, async (c) => respondJson(c, await deleteWebhook(ctx, own(c.var.caller.principal), c.req.valid('param').id), 200));

  const deliveries = defineRoute(deps, 'secret', {
    method: 'get',
    path: '/webhooks/{id}/deliveries',
    tags: ['Webhooks'],
    operationId: 'listWebhookDeliveries',
    description:
      "Secret Key. The endpoint's delivery log, newest event first, keyset-paginated: status (pending, delivered, failed), attempts, the last answer's status code and first 256 bytes, the last error, the next attempt.",
    summary: "List an endpoint's deliveries with their status, attempts and last answer",
    request: { params: WebhookId, query: ListDeliveriesInput },
    responses: { 200: jsonResponse(WebhookDeliveryPage, 'A page of deliveries'), ...errorResponses(400, 404) },
  });
  router.openapi(deliveries, async (c) =>
    respondJson(c, await listDeliveries(ctx, own(c.var.caller.principal), c.req.valid('param').id, c.req.valid('query')), 200),
  );

  const redeliver = defineRoute(deps, 'secret', {
    method: 'post',
    path: '/webhooks/{id}/deliveries/{eventId}/redeliver',
    tags: ['Webhooks'],
    operationId: 'redeliverWebhookEvent',
    description: 'Secret Key. Sends the event to the endpoint again, now, with a fresh retry schedule, whatever its delivery status. 409 conflict when the endpoint is disabled.',
    summary: 'Send an event to an endpoint again',
    request: { params: DeliveryId },
    responses: { 200: jsonResponse(Redelivered, 'The delivery is due again'), ...errorResponses(404, 409) },
  });
  router.openapi(redeliver, async (c) => {
    const { id, eventId } = c.req.valid('param');
    return respondJson(c, await redeliverEvent(ctx, own(c.var.caller.principal), eventId, id), 200);
  });

  return router;
}
