import type { Command } from 'commander';
import { getTemplate, listTemplates, type TemplateSummary } from '../../services/templates';
import { printJson, printTable } from '../io';
import { configOverrides } from '../options';
import { withAccount, type CliRuntime } from '../runtime';

export function registerTemplates(program: Command, runtime: CliRuntime): void {
  const templates = program.command('templates').description('templates of an account');
  templates
    .command('list')
    .description('list every template of the account, newest first (without schemas)')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON { data: [...] }')
    .action(async (options: { account?: string; json?: boolean }, command: Command) => {
      const data = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) => {
        const all: TemplateSummary[] = [];
        let cursor: string | undefined;
        do {
          const page = await listTemplates(ctx, accountId, { limit: 100, cursor });
          all.push(...page.data);
          cursor = page.pagination.paging.nextCursor ?? undefined;
        } while (cursor);
        return all;
      });
      if (options.json) return printJson(runtime.io, { data });
      printTable(runtime.io, ['KEY', 'ID', 'SOURCE', 'UPDATED'], data.map((t) => [t.key, t.id, t.source, t.updatedAt]));
    });

  templates
    .command('show')
    .description('show one template with its full schema')
    .argument('<id>', 'template id')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON (the GET /v1/templates/{id} response)')
    .option('--frictionless', 'print the schema as a Frictionless Table Schema (JSON); with --json, the GET ...?format=frictionless response')
    .action(async (id: string, options: { account?: string; json?: boolean; frictionless?: boolean }, command: Command) => {
      const input = { format: options.frictionless ? ('frictionless' as const) : undefined };
      const template = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) => await getTemplate(ctx, accountId, id, input));
      if (options.json) return printJson(runtime.io, template);
      if (options.frictionless) return printJson(runtime.io, template.schema);
      const { schema, metadata, ...fields } = template;
      runtime.io.out(Object.entries(fields).map(([name, value]) => `${`${name}:`.padEnd(11)}${String(value)}\n`).join(''));
      runtime.io.out(`metadata:  ${JSON.stringify(metadata)}\nschema:\n${JSON.stringify(schema, null, 2)}\n`);
    });
}
