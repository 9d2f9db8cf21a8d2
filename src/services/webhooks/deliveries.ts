import { isoTime } from '../../core/clock';
import type { WebhookScope } from '../../db/store';
import type { ServiceContext } from '../context';
import { conflict, notFound } from '../errors';
import { buildPage, decodeCursor, type PageRequest } from '../pagination';
import { parseInput } from '../validate';
import { findWebhook } from './endpoints';
import { ListDeliveriesInput, PLAUSIBLE_ID, type Redelivered, type WebhookDeliveryPage } from './schemas';

/**
 * The delivery log of an endpoint, newest event first, by keyset: status, attempts, the last answer's code
 * and first bytes, the last error and the next attempt. Throws not_found, validation_failed.
 */
export async function listDeliveries(ctx: ServiceContext, scope: WebhookScope, webhookId: string, input: ListDeliveriesInput): Promise<WebhookDeliveryPage> {
  const { limit, cursor } = parseInput(ListDeliveriesInput, input);
  const endpoint = await findWebhook(ctx, scope, webhookId);
  const request: PageRequest<Record<string, never>, 'string'> = {
    scope: ['webhook-deliveries', endpoint.accountId, endpoint.id],
    keyset: 'string',
    limit,
    cursor,
    orderBy: 'eventId',
    direction: 'desc',
    filters: {},
  };
  const after = decodeCursor(ctx, request);
  const rows = limit === 0 ? [] : await ctx.store.webhooks.pageDeliveries(endpoint.id, after?.id, limit + 1);
  const page = buildPage(ctx, request, rows, await ctx.store.webhooks.countDeliveries(endpoint.id), (row) => ({ value: row.eventId, id: row.eventId }));
  return { data: page.rows.map(({ endpointId: _endpoint, ...delivery }) => delivery), pagination: page.pagination };
}

/**
 * Sends an event again, now and with a fresh retry schedule, to one endpoint (`webhookId`) or to every
 * active endpoint of the scope that had it, whatever their deliveries' status. Throws not_found (no such
 * delivery), conflict (the endpoint is disabled: nothing is sent to it, so the delivery could only fail).
 */
export async function redeliverEvent(ctx: ServiceContext, scope: WebhookScope, eventId: string, webhookId?: string): Promise<Redelivered> {
  if (webhookId !== undefined) await findWebhook(ctx, scope, webhookId);
  const { due, disabled } = PLAUSIBLE_ID.test(eventId)
    ? await ctx.store.webhooks.redeliver(scope, eventId, webhookId, isoTime(ctx.clock))
    : { due: 0, disabled: 0 };
  if (due === 0 && disabled > 0) throw conflict('the webhook is disabled: register it again once its receiver is fixed');
  if (due === 0) throw notFound('webhook delivery');
  ctx.webhookWake.notify();
  return { eventId, deliveries: due };
}
