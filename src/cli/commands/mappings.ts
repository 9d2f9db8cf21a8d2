import type { Command } from 'commander';
import { ServiceError } from '../../services/errors';
import { forgetLearnedMappings, listLearnedMappings } from '../../services/mapping';
import { printJson, printTable } from '../io';
import { configOverrides } from '../options';
import { withAccount, type CliRuntime } from '../runtime';

export function registerMappings(program: Command, runtime: CliRuntime): void {
  const mappings = program.command('mappings').description('header and value mappings learned from confirmed imports (meta.mapping, meta.valueMapping), per template');

  mappings
    .command('list')
    .description('list the learned mappings (schema key -> file header label, or an enum value -> its option) with who confirmed them: distinct end-users, the Secret Key')
    .option('--template <key-or-id>', 'one template only')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON { data: [{ templateId, templateKey, schemaKey, fileLabel, fileValue, option, endUsers, secretKey, preferred, updatedAt }] }')
    .action(async (options: { template?: string; account?: string; json?: boolean }, command: Command) => {
      const data = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) => await listLearnedMappings(ctx, accountId, options.template));
      if (options.json) return printJson(runtime.io, { data });
      printTable(
        runtime.io,
        ['TEMPLATE', 'SCHEMA KEY', 'FILE LABEL', 'VALUE', 'OPTION', 'END-USERS', 'SECRET KEY', 'PREFERRED', 'UPDATED'],
        data.map((m) => [m.templateKey, m.schemaKey, m.fileLabel ?? '-', m.fileValue ?? '-', m.option ?? '-', String(m.endUsers), m.secretKey ? 'yes' : 'no', m.preferred ? 'yes' : 'no', m.updatedAt]),
      );
    });

  mappings
    .command('forget')
    .description("forget a template's learned mappings and values (only one schema key's when given), or every learned mapping of the account with --all")
    .argument('[schema-key]', 'the schema key to forget (with --template)')
    .option('--template <key-or-id>', 'the template whose mappings to forget')
    .option('--all', 'forget every learned mapping of the account')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON { deleted }')
    .action(async (schemaKey: string | undefined, options: { template?: string; all?: boolean; account?: string; json?: boolean }, command: Command) => {
      if ((options.template === undefined) === !options.all || (options.all && schemaKey !== undefined)) {
        throw new ServiceError('validation_failed', 'give either --template (and optionally a schema key) or --all');
      }
      const input = options.template === undefined ? ({ all: true } as const) : { template: options.template, ...(schemaKey === undefined ? {} : { schemaKey }) };
      const result = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) => await forgetLearnedMappings(ctx, accountId, input));
      if (options.json) return printJson(runtime.io, result);
      runtime.io.out(`forgot ${result.deleted} learned mapping${result.deleted === 1 ? '' : 's'}\n`);
    });
}
