import type { Command } from 'commander';
import { resolveAccount } from '../../services/accounts';
import {
  createEnvironment,
  listEnvironments,
  updateEnvironmentOrigins,
  type EnvironmentView,
} from '../../services/environments';
import { ServiceError } from '../../services/errors';
import { printJson, printTable, type CliIo } from '../io';
import { collect, configOverrides } from '../options';
import { withServices, type CliRuntime } from '../runtime';

interface AccountOption {
  account?: string;
  json?: boolean;
}

export function registerEnv(program: Command, runtime: CliRuntime): void {
  const env = program.command('env').description('manage environments and their keys');

  env
    .command('create')
    .description('create an environment; prints its Secret Key and Public Key once')
    .argument('<name>', 'environment name (1-50 characters)')
    .option('--origin <url>', 'allowed origin of the Public Key (repeatable)', collect, [])
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON')
    .action(async (name: string, options: AccountOption & { origin: string[] }, command: Command) => {
      const created = await withServices(runtime, configOverrides(command), (ctx) =>
        createEnvironment(ctx, resolveAccount(ctx, options.account).id, { name, allowedOrigins: options.origin }),
      );
      if (options.json) return printJson(runtime.io, created);
      runtime.io.out(
        [
          `environment ${created.name} created`,
          `secret key: ${created.secretKey.key}`,
          `public key: ${created.publicKey.key}`,
          `allowed origins: ${created.publicKey.allowedOrigins.join(', ') || '(none)'}`,
          'store both keys now: they are not shown again',
          '',
        ].join('\n'),
      );
    });

  env
    .command('origins')
    .description("replace the allowed origins of the environment's Public Key")
    .argument('<name>', 'environment name')
    .option('--origin <url>', 'allowed origin (repeatable)', collect, [])
    .option('--none', 'remove every allowed origin')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON')
    .action(async (name: string, options: AccountOption & { origin: string[]; none?: boolean }, command: Command) => {
      if (Boolean(options.none) === options.origin.length > 0) {
        throw new ServiceError('validation_failed', 'give either --origin URL (one or more) or --none');
      }
      const updated = await withServices(runtime, configOverrides(command), (ctx) =>
        updateEnvironmentOrigins(ctx, resolveAccount(ctx, options.account).id, name, { allowedOrigins: options.origin }),
      );
      if (options.json) return printJson(runtime.io, updated);
      printEnvironments(runtime.io, [updated]);
    });

  env
    .command('list')
    .description('list environments with key prefixes and allowed origins')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON')
    .action(async (options: AccountOption, command: Command) => {
      const environments = await withServices(runtime, configOverrides(command), (ctx) =>
        listEnvironments(ctx, resolveAccount(ctx, options.account).id),
      );
      if (options.json) return printJson(runtime.io, { data: environments });
      printEnvironments(runtime.io, environments);
    });
}

function printEnvironments(io: CliIo, environments: EnvironmentView[]): void {
  printTable(
    io,
    ['NAME', 'SECRET KEY', 'PUBLIC KEY', 'ALLOWED ORIGINS', 'LAST USED'],
    environments.map((e) => [
      e.name,
      `${e.secretKey.prefix}...`,
      `${e.publicKey.prefix}...`,
      e.publicKey.allowedOrigins.join(' ') || '-',
      e.lastUsedAt ?? 'never',
    ]),
  );
}
