import type { Command } from 'commander';
import { ServiceError } from '../../services/errors';
import { forgetLearnedMappings, listLearnedMappings } from '../../services/mapping';
import { printJson, printTable } from '../io';
import { configOverrides } from '../options';
import { withAccount, type CliRuntime } from '../runtime';

export function registerMappings(program: Command, runtime: CliRuntime): void {
  const mappings = program.command('mappings').description('header mappings learned from confirmed imports (meta.mapping)');

  mappings
    .command('list')
    .description("list the account's learned mappings: schema key -> file header label")
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON { data: [{ schemaKey, fileLabel, updatedAt }] }')
    .action(async (options: { account?: string; json?: boolean }, command: Command) => {
      const data = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) => await listLearnedMappings(ctx, accountId));
      if (options.json) return printJson(runtime.io, { data });
      printTable(runtime.io, ['SCHEMA KEY', 'FILE LABEL', 'UPDATED'], data.map((m) => [m.schemaKey, m.fileLabel, m.updatedAt]));
    });

  mappings
    .command('forget')
    .description('forget the learned label of one schema key, or every learned mapping of the account with --all')
    .argument('[schema-key]', 'the schema key to forget')
    .option('--all', 'forget every learned mapping of the account')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON { deleted }')
    .action(async (schemaKey: string | undefined, options: { all?: boolean; account?: string; json?: boolean }, command: Command) => {
      if ((schemaKey === undefined) === !options.all) throw new ServiceError('validation_failed', 'give either a schema key or --all');
      const result = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) =>
        await forgetLearnedMappings(ctx, accountId, schemaKey === undefined ? { all: true } : { schemaKey }),
      );
      if (options.json) return printJson(runtime.io, result);
      runtime.io.out(`forgot ${result.deleted} learned mapping${result.deleted === 1 ? '' : 's'}\n`);
    });
}
