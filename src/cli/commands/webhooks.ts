import type { Command } from 'commander';
import { resolveAccount } from '../../services/accounts';
import type { ServiceContext } from '../../services/context';
import { resolveEnvironment } from '../../services/environments';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  redeliverEvent,
  type CreateWebhookInput,
  type Webhook,
  type WebhookDelivery,
  WEBHOOK_EVENTS,
} from '../../services/webhooks';
import { printJson, printTable } from '../io';
import { collect, configOverrides } from '../options';
import { withServices, type CliRuntime } from '../runtime';

interface AccountOption {
  account?: string;
  json?: boolean;
}

/** The operator manages any environment of the account (a Secret Key only its own). */
async function accountScope(ctx: ServiceContext, account: string | undefined, env?: string) {
  const accountId = (await resolveAccount(ctx, account)).id;
  return { accountId, environmentId: env === undefined ? undefined : (await resolveEnvironment(ctx, accountId, env)).id };
}

/** Every page of a keyset list. */
async function allPages<T>(page: (cursor: string | undefined) => Promise<{ data: T[]; pagination: { paging: { nextCursor: string | null } } }>) {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const next = await page(cursor);
    all.push(...next.data);
    cursor = next.pagination.paging.nextCursor ?? undefined;
  } while (cursor);
  return all;
}

export function registerWebhooks(program: Command, runtime: CliRuntime): void {
  const webhooks = program.command('webhooks').description('webhook endpoints of an environment and their deliveries');

  webhooks
    .command('add')
    .description('register an endpoint; prints its signing secret once')
    .argument('<url>', 'https URL to a public address')
    .requiredOption('--env <name>', 'environment whose events it receives')
    .option('--event <type>', `${WEBHOOK_EVENTS.join(', ')} (repeatable; default: all)`, collect, [])
    .option('--description <text>', 'a note for operators')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON (the POST /v1/webhooks answer)')
    .action(async (url: string, options: AccountOption & { env: string; event: string[]; description?: string }, command: Command) => {
      const input: CreateWebhookInput = { url, description: options.description };
      if (options.event.length > 0) input.events = options.event as CreateWebhookInput['events'];
      const created = await withServices(runtime, configOverrides(command), async (ctx) => {
        const scope = await accountScope(ctx, options.account, options.env);
        return await createWebhook(ctx, { accountId: scope.accountId, environmentId: scope.environmentId! }, input);
      });
      if (options.json) return printJson(runtime.io, created);
      runtime.io.out(
        [`webhook ${created.id} added for ${created.events.join(', ')}`, `secret: ${created.secret}`, 'store the secret now: it is not shown again', ''].join('\n'),
      );
    });

  webhooks
    .command('list')
    .description('list endpoints, newest first (without secrets)')
    .option('--env <name>', 'only this environment')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON { data: [...] }')
    .action(async (options: AccountOption & { env?: string }, command: Command) => {
      const data = await withServices(runtime, configOverrides(command), async (ctx) => {
        const scope = await accountScope(ctx, options.account, options.env);
        return await allPages<Webhook>((cursor) => listWebhooks(ctx, scope, { limit: 100, cursor }));
      });
      if (options.json) return printJson(runtime.io, { data });
      printTable(
        runtime.io,
        ['ID', 'URL', 'EVENTS', 'ACTIVE'],
        data.map((w) => [w.id, w.url, w.events.join(','), w.active ? 'yes' : `no: ${w.disabledReason ?? ''}`]),
      );
    });

  webhooks
    .command('remove')
    .description('remove an endpoint and its delivery log')
    .argument('<id>', 'webhook id')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON')
    .action(async (id: string, options: AccountOption, command: Command) => {
      const removed = await withServices(runtime, configOverrides(command), async (ctx) => await deleteWebhook(ctx, await accountScope(ctx, options.account), id));
      if (options.json) return printJson(runtime.io, removed);
      runtime.io.out(`webhook ${id} removed\n`);
    });

  webhooks
    .command('deliveries')
    .description("an endpoint's delivery log, newest event first")
    .argument('<id>', 'webhook id')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON { data: [...] }')
    .action(async (id: string, options: AccountOption, command: Command) => {
      const data = await withServices(runtime, configOverrides(command), async (ctx) => {
        const scope = await accountScope(ctx, options.account);
        return await allPages<WebhookDelivery>((cursor) => listDeliveries(ctx, scope, id, { limit: 100, cursor }));
      });
      if (options.json) return printJson(runtime.io, { data });
      printTable(
        runtime.io,
        ['EVENT', 'TYPE', 'STATUS', 'ATTEMPTS', 'LAST', 'NEXT ATTEMPT'],
        data.map((d) => [d.eventId, d.type, d.status, String(d.attempts), d.lastError ?? (d.lastStatusCode === null ? '' : String(d.lastStatusCode)), d.nextAttemptAt ?? '']),
      );
    });

  webhooks
    .command('redeliver')
    .description('send an event again to every endpoint that had it, now, with a fresh retry schedule (serve sends it)')
    .argument('<event-id>', 'event id (the webhook-id header)')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON')
    .action(async (eventId: string, options: AccountOption, command: Command) => {
      const result = await withServices(runtime, configOverrides(command), async (ctx) => await redeliverEvent(ctx, await accountScope(ctx, options.account), eventId));
      if (options.json) return printJson(runtime.io, result);
      runtime.io.out(`event ${eventId} due again for ${result.deliveries} endpoint(s)\n`);
    });
}
