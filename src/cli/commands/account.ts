import type { Command } from 'commander';
import { createAccount, listAccounts } from '../../services/accounts';
import { formatBytes } from '../../lib/format-bytes';
import { printJson, printTable } from '../io';
import { configOverrides } from '../options';
import { withServices, type CliRuntime } from '../runtime';

export function registerAccount(program: Command, runtime: CliRuntime): void {
  const account = program.command('account').description('manage accounts');
  account
    .command('create')
    .description('create an account')
    .argument('<name>', 'account name')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }, command: Command) => {
      const created = await withServices(runtime, configOverrides(command), async (ctx) => await createAccount(ctx, { name }));
      if (options.json) printJson(runtime.io, created);
      else runtime.io.out(`account ${created.name} created (id ${created.id})\n`);
    });

  account
    .command('list')
    .description('list every account, oldest first, with its stored bytes and quota')
    .option('--json', 'print JSON { data: [...] }')
    .action(async (options: { json?: boolean }, command: Command) => {
      const data = await withServices(runtime, configOverrides(command), async (ctx) => await listAccounts(ctx));
      if (options.json) return printJson(runtime.io, { data });
      const quota = (a: (typeof data)[number]) => (a.quotaBytes === null ? 'off' : formatBytes(a.quotaBytes));
      printTable(runtime.io, ['NAME', 'ID', 'CREATED', 'USED', 'QUOTA'], data.map((a) => [a.name, a.id, a.createdAt, formatBytes(a.usedBytes), quota(a)]));
    });
}
