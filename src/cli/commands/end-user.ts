import type { Command } from 'commander';
import { deleteEndUserData } from '../../services/compliance';
import { printJson } from '../io';
import { configOverrides } from '../options';
import { withAccount, type CliRuntime } from '../runtime';

export function registerEndUser(program: Command, runtime: CliRuntime): void {
  const endUser = program.command('end-user').description('compliance requests about one end-user');
  endUser
    .command('delete')
    .description("delete every import (with its rows) and every session of an end-user in the account, atomically")
    .argument('<end-user-id>', 'the end-user id sessions were issued for')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON { endUserId, deleted: { imports, rows, sessions } }')
    .action(async (endUserId: string, options: { account?: string; json?: boolean }, command: Command) => {
      const result = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) =>
        await deleteEndUserData(ctx, accountId, endUserId),
      );
      if (options.json) return printJson(runtime.io, result);
      const { imports, rows, sessions } = result.deleted;
      runtime.io.out(`end-user ${result.endUserId}: deleted ${imports} imports (${rows} rows) and ${sessions} sessions\n`);
    });
}
