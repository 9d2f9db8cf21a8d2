import { z } from 'zod';
import { PageCursor, pageLimit, pageSchema } from '../page-schemas';

export const WEBHOOK_EVENTS = ['import.completed', 'import.deleted', 'end_user.deleted', 'import.approved', 'import.rejected'] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENTS);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const MAX_WEBHOOK_URL = 2048;

/** Its form only; whether it may be called (scheme, address, length once normalised) is checked by the verb (target-address.ts). */
export const WebhookUrl = z.string().min(1).max(MAX_WEBHOOK_URL, `must be at most ${MAX_WEBHOOK_URL} characters`);

/** The form of webhook ids (UUIDv7) and event ids (`evt_` + UUIDv7): anything else cannot name one. */
export const PLAUSIBLE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** POST /webhooks. `events` defaults to every event. */
export const CreateWebhookInput = z
  .object({
    url: WebhookUrl,
    events: z.array(WebhookEventType).min(1).max(WEBHOOK_EVENTS.length).optional(),
    description: z
      .string()
      .max(500, 'must be at most 500 characters')
      .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'must not contain control characters other than tab and line breaks')
      .optional(),
  })
  .strict()
  .meta({ id: 'CreateWebhookInput', examples: [{ url: 'https://hooks.example.com/importd', events: ['import.completed'], description: 'CRM sync' }] });
export type CreateWebhookInput = z.input<typeof CreateWebhookInput>;

export const ListWebhooksInput = z.object({ limit: pageLimit(0), cursor: PageCursor });
export type ListWebhooksInput = z.input<typeof ListWebhooksInput>;

export const ListDeliveriesInput = ListWebhooksInput;
export type ListDeliveriesInput = ListWebhooksInput;

const WebhookShape = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(WebhookEventType),
  description: z.string(),
  active: z.boolean(),
  disabledReason: z.string().nullable().describe('why importd stopped delivering to it (null while active)'),
  environmentId: z.string(),
  createdAt: z.string(),
});
export const Webhook = WebhookShape.meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof Webhook>;

export const CreatedWebhook = WebhookShape.extend({
  secret: z.string().describe('`whsec_` + base64: the signing secret, shown only in this answer'),
}).meta({ id: 'CreatedWebhook' });
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

export const WebhookPage = pageSchema(Webhook, z.object({})).meta({ id: 'WebhookPage' });
export type WebhookPage = z.infer<typeof WebhookPage>;

export const WebhookDelivery = z
  .object({
    eventId: z.string().describe('the `webhook-id` header, the same on every attempt'),
    type: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.int(),
    nextAttemptAt: z.string().nullable(),
    lastAttemptAt: z.string().nullable(),
    lastStatusCode: z.int().nullable(),
    lastResponse: z.string().nullable().describe('the first 256 bytes of the last response body'),
    lastError: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryPage = pageSchema(WebhookDelivery, z.object({})).meta({ id: 'WebhookDeliveryPage' });
export type WebhookDeliveryPage = z.infer<typeof WebhookDeliveryPage>;

export const DeletedWebhook = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'DeletedWebhook' });
export type DeletedWebhook = z.infer<typeof DeletedWebhook>;

export const Redelivered = z.object({ eventId: z.string(), deliveries: z.int() }).meta({ id: 'Redelivered' });
export type Redelivered = z.infer<typeof Redelivered>;
