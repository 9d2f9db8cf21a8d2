import type { Command } from 'commander';
import {
  createEnvironment,
  deleteEnvironment,
  listEnvironments,
  rollEnvironmentKey,
  updateEnvironment,
  updateEnvironmentOrigins,
  type EnvironmentView,
} from '../../services/environments';
import { ServiceError } from '../../services/errors';
import { printJson, printTable, type CliIo } from '../io';
import { cliNumber, collect, configOverrides } from '../options';
import { withAccount, type CliRuntime } from '../runtime';

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
    .option('--auto-create-templates', 'let Public Key sessions create templates for unknown keys (off by default)')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON')
    .action(async (name: string, options: AccountOption & { origin: string[]; autoCreateTemplates?: boolean }, command: Command) => {
      const created = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) =>
        await createEnvironment(ctx, accountId, { name, allowedOrigins: options.origin, autoCreateTemplates: options.autoCreateTemplates === true }),
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
      const updated = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) =>
        await updateEnvironmentOrigins(ctx, { accountId }, name, { allowedOrigins: options.origin }),
      );
      if (options.json) return printJson(runtime.io, updated);
      printEnvironments(runtime.io, [updated]);
    });

  env
    .command('set')
    .description("change an environment's settings")
    .argument('<name>', 'environment name')
    .requiredOption('--auto-create-templates <on|off>', 'whether Public Key sessions may create templates for unknown keys')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON')
    .action(async (name: string, options: AccountOption & { autoCreateTemplates: string }, command: Command) => {
      const allowed = { on: true, off: false }[options.autoCreateTemplates.toLowerCase()];
      if (allowed === undefined) throw new ServiceError('validation_failed', '--auto-create-templates takes on or off');
      const updated = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) =>
        await updateEnvironment(ctx, { accountId }, name, { autoCreateTemplates: allowed }),
      );
      if (options.json) return printJson(runtime.io, updated);
      printEnvironments(runtime.io, [updated]);
    });

  env
    .command('roll')
    .description('replace a key with a new one (printed once); the old one stops working at once or after --expire-old-in')
    .argument('<name>', 'environment name')
    .requiredOption('--kind <kind>', 'which key: secret or public')
    .option('--expire-old-in <seconds>', 'keep the old key working this long, at most 604800 (7 days); default 0')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON { kind, key, previous }')
    .action(async (name: string, options: AccountOption & { kind: string; expireOldIn?: string }, command: Command) => {
      const rolled = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) =>
        await rollEnvironmentKey(ctx, { accountId }, name, {
          kind: options.kind as 'secret' | 'public',
          expireOldInSeconds: options.expireOldIn === undefined ? undefined : cliNumber(options.expireOldIn, 'expireOldInSeconds'),
        }),
      );
      if (options.json) return printJson(runtime.io, rolled);
      runtime.io.out(
        [
          `new ${rolled.kind} key of ${name}: ${rolled.key.key}`,
          ...(rolled.key.allowedOrigins ? [`allowed origins: ${rolled.key.allowedOrigins.join(', ') || '(none)'}`] : []),
          `previous key ${rolled.previous.prefix}... stops working at ${rolled.previous.expiresAt}`,
          'store the new key now: it is not shown again',
          '',
        ].join('\n'),
      );
    });

  env
    .command('delete')
    .description("delete an environment: deactivates its keys and revokes its sessions; its imports stay")
    .argument('<name>', 'environment name')
    .option('--yes', 'confirm the deletion')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON { name, deletedAt, deactivatedKeys, revokedSessions }')
    .action(async (name: string, options: AccountOption & { yes?: boolean }, command: Command) => {
      if (!options.yes) {
        throw new ServiceError('validation_failed', `deleting ${name} deactivates its keys and revokes its sessions at once: add --yes to confirm`);
      }
      const deleted = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) =>
        await deleteEnvironment(ctx, { accountId }, name),
      );
      if (options.json) return printJson(runtime.io, deleted);
      runtime.io.out(
        `environment ${deleted.name} deleted (keys deactivated: ${deleted.deactivatedKeys}, sessions revoked: ${deleted.revokedSessions}); its imports stay\n`,
      );
    });

  env
    .command('list')
    .description('list environments with key prefixes and allowed origins')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON')
    .action(async (options: AccountOption, command: Command) => {
      const environments = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) =>
        await listEnvironments(ctx, accountId),
      );
      if (options.json) return printJson(runtime.io, { data: environments });
      printEnvironments(runtime.io, environments);
    });
}

function printEnvironments(io: CliIo, environments: EnvironmentView[]): void {
  printTable(
    io,
    ['NAME', 'SECRET KEY', 'PUBLIC KEY', 'ALLOWED ORIGINS', 'AUTO-CREATE TEMPLATES', 'LAST USED'],
    environments.map((e) => [
      e.name,
      `${e.secretKey.prefix}...`,
      `${e.publicKey.prefix}...`,
      e.publicKey.allowedOrigins.join(' ') || '-',
      e.autoCreateTemplates ? 'on' : 'off',
      e.lastUsedAt ?? 'never',
    ]),
  );
}
