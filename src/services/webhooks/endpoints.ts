import { randomBytes } from 'node:crypto';
import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import type { WebhookEndpointRow, WebhookScope } from '../../db/store';
import type { ServiceContext } from '../context';
import { limitReached, notFound, validationFailed } from '../errors';
import { buildPage, decodeCursor, type PageRequest } from '../pagination';
import { parseInput } from '../validate';
import {
  CreateWebhookInput,
  ListWebhooksInput,
  PLAUSIBLE_ID,
  WEBHOOK_EVENTS,
  type CreatedWebhook,
  type DeletedWebhook,
  type Webhook,
  type WebhookEventType,
  type WebhookPage,
} from './schemas';
import { checkWebhookUrl } from './target-address';

export function toWebhook(row: WebhookEndpointRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    description: row.description,
    active: row.active,
    disabledReason: row.disabledReason,
    environmentId: row.environmentId,
    createdAt: row.createdAt,
  };
}

/**
 * Registers an endpoint in an environment and answers it with its signing secret (`whsec_` + base64 of 32
 * random bytes), shown only here. Throws validation_failed (bad URL, a target that is not public, an unknown
 * event, or the environment already holds IMPORTD_WEBHOOK_MAX_ENDPOINTS), limit_reached (the account holds
 * IMPORTD_MAX_WEBHOOKS_PER_ACCOUNT).
 */
export async function createWebhook(ctx: ServiceContext, scope: Required<WebhookScope>, input: CreateWebhookInput): Promise<CreatedWebhook> {
  const parsed = parseInput(CreateWebhookInput, input);
  const { allowPrivate, maxEndpoints, maxEndpointsPerAccount } = ctx.config.webhooks;
  const row: WebhookEndpointRow = {
    id: newId(),
    accountId: scope.accountId,
    environmentId: scope.environmentId,
    url: checkWebhookUrl(parsed.url, allowPrivate),
    description: parsed.description ?? '',
    events: [...new Set(parsed.events ?? WEBHOOK_EVENTS)],
    secret: `whsec_${randomBytes(32).toString('base64')}`,
    active: true,
    disabledReason: null,
    failingSince: null,
    createdAt: isoTime(ctx.clock),
  };
  const inserted = await ctx.store.webhooks.insertEndpoint(row, { perEnvironment: maxEndpoints, perAccount: maxEndpointsPerAccount });
  if (inserted === 'environment_full') {
    throw validationFailed([{ path: '', message: `the environment already has ${maxEndpoints} webhooks (IMPORTD_WEBHOOK_MAX_ENDPOINTS)` }]);
  }
  if (inserted === 'account_full') throw limitReached('webhooks', maxEndpointsPerAccount, 'IMPORTD_MAX_WEBHOOKS_PER_ACCOUNT');
  return { ...toWebhook(row), secret: row.secret };
}

/** One keyset page of the scope's endpoints, newest first (never their secrets). Throws validation_failed. */
export async function listWebhooks(ctx: ServiceContext, scope: WebhookScope, input: ListWebhooksInput): Promise<WebhookPage> {
  const { limit, cursor } = parseInput(ListWebhooksInput, input);
  const request: PageRequest<Record<string, never>, 'string'> = {
    scope: ['webhooks', scope.accountId, scope.environmentId ?? null],
    keyset: 'string',
    limit,
    cursor,
    orderBy: 'createdAt',
    direction: 'desc',
    filters: {},
  };
  const after = decodeCursor(ctx, request);
  const rows = limit === 0 ? [] : await ctx.store.webhooks.pageEndpoints(scope, after, limit + 1);
  const page = buildPage(ctx, request, rows, await ctx.store.webhooks.countEndpoints(scope), (row) => ({ value: row.createdAt, id: row.id }));
  return { data: page.rows.map(toWebhook), pagination: page.pagination };
}

/** An endpoint in the scope. Throws not_found (also for another environment's or account's). */
export async function findWebhook(ctx: ServiceContext, scope: WebhookScope, id: string): Promise<WebhookEndpointRow> {
  // An id that cannot be one (control characters, NUL: PostgreSQL refuses those in text) is simply unknown.
  const row = PLAUSIBLE_ID.test(id) ? await ctx.store.webhooks.findEndpoint(scope, id) : undefined;
  if (!row) throw notFound('webhook');
  return row;
}

/** Removes an endpoint with its delivery log; nothing more is sent to it. Throws not_found. */
export async function deleteWebhook(ctx: ServiceContext, scope: WebhookScope, id: string): Promise<DeletedWebhook> {
  if (!PLAUSIBLE_ID.test(id) || !(await ctx.store.webhooks.deleteEndpoint(scope, id))) throw notFound('webhook');
  return { id, deleted: true };
}
