import type { OpenAPIHono } from '@hono/zod-openapi';
import { WEBHOOK_EVENTS } from '../services/webhooks';
import { webhookEventBody } from '../services/webhooks/event-schemas';

/** Documents every event importd delivers under the OpenAPI document's `webhooks`, one POST each. */
export function registerWebhookEvents(registry: OpenAPIHono['openAPIRegistry']): void {
  for (const type of WEBHOOK_EVENTS) {
    const { schema, summary } = webhookEventBody(type);
    registry.registerWebhook({
      method: 'post',
      path: type,
      tags: ['Webhooks'],
      operationId: `${type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}Event`,
      summary,
      description:
        'POSTed to each endpoint subscribed to the event in its environment, with the headers `webhook-id` (the event id, the same on every retry), `webhook-timestamp` and `webhook-signature` (Standard Webhooks). Answer 2xx; anything else is retried.',
      request: { body: { required: true, content: { 'application/json': { schema } } } },
      responses: { 200: { description: 'Any 2xx answer acknowledges the delivery' } },
    });
  }
}
