import { z } from 'zod';
import { ImportListItem } from '../imports/schemas';
import type { WebhookEventType } from './schemas';

// The bodies importd POSTs for each event (events.ts builds them), for the OpenAPI document's `webhooks`.

const ImportInEnvironment = ImportListItem.extend({ environment: z.string().nullable().meta({ description: "the name of the import's environment" }) });
const Reviewed = ImportInEnvironment.extend({
  reviewedAt: z.string().meta({ description: 'when the reviewer decided' }),
  reason: z.string().nullable().meta({ description: "the reviewer's reason, when one was given" }),
});

const DATA: Record<WebhookEventType, { data: z.ZodType; summary: string }> = {
  'import.completed': { data: ImportInEnvironment, summary: 'An import counts: it was written (and needs no review), or a reviewer approved it' },
  'import.approved': { data: Reviewed, summary: 'A reviewer approved an import pending review (import.completed is sent with it)' },
  'import.rejected': { data: Reviewed, summary: 'A reviewer rejected an import pending review: it never counts' },
  'import.deleted': { data: z.object({ id: z.string() }), summary: 'An import was deleted (DELETE /v1/imports/{id})' },
  'end_user.deleted': { data: z.object({ endUserId: z.string() }), summary: "An end-user's data was erased (sent to every environment of the account)" },
};

/** The body of one event type: `{ type, timestamp, data }`, signed per Standard Webhooks. */
export function webhookEventBody(type: WebhookEventType): { schema: z.ZodType; summary: string } {
  const { data, summary } = DATA[type];
  return { summary, schema: z.object({ type: z.literal(type), timestamp: z.string(), data }) };
}
