import type { Command } from 'commander';
import { resolveAccount } from '../../services/accounts';
import { getImport, listImports } from '../../services/imports';
import { printJson, printTable } from '../io';
import { configOverrides } from '../options';
import { withServices, type CliRuntime } from '../runtime';

interface ListOptions {
  limit?: string;
  cursor?: string;
  environment?: string;
  account?: string;
  json?: boolean;
}

export function registerImports(program: Command, runtime: CliRuntime): void {
  const imports = program.command('imports').description('inspect stored imports');

  imports
    .command('list')
    .description('list imports, newest first (one page; --cursor for the next)')
    .option('--limit <n>', 'page size 0-100 (default 20)')
    .option('--cursor <cursor>', 'nextCursor of the previous page')
    .option('--environment <name>', 'only imports through this environment')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON (the GET /v1/imports response)')
    .action(async (options: ListOptions, command: Command) => {
      const page = await withServices(runtime, configOverrides(command), (ctx) =>
        listImports(ctx, resolveAccount(ctx, options.account).id, {
          limit: options.limit,
          cursor: options.cursor,
          environment: options.environment,
        }),
      );
      if (options.json) return printJson(runtime.io, page);
      printTable(
        runtime.io,
        ['ID', 'CREATED', 'ROWS', 'END USER', 'FROM', 'TEMPLATE'],
        page.data.map((i) => [i.id, i.createdAt, String(i.rowCount), i.endUserId ?? '-', i.importedFrom ?? '-', i.templateId]),
      );
      const { paging } = page.pagination;
      runtime.io.out(`${paging.count} of ${paging.total}${paging.nextCursor ? `; next page: --cursor ${paging.nextCursor}` : ''}\n`);
    });

  imports
    .command('show')
    .description('show one import with its cell statistics')
    .argument('<importId>', 'import id')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON (the GET /v1/imports/{id} response)')
    .action(async (importId: string, options: { account?: string; json?: boolean }, command: Command) => {
      const detail = await withServices(runtime, configOverrides(command), (ctx) =>
        getImport(ctx, resolveAccount(ctx, options.account).id, importId),
      );
      if (options.json) return printJson(runtime.io, detail);
      const fields: [string, string | null][] = [
        ['id', detail.id],
        ['template', detail.templateId],
        ['created', detail.createdAt],
        ['updated', detail.updatedAt],
        ['file', typeof detail.file?.name === 'string' ? detail.file.name : null],
        ['rows', String(detail.cellStats.rowCount)],
        ['cells', String(detail.cellStats.totalCells)],
        ['end user', detail.endUserId],
        ['end-user e-mail', detail.endUserEmail],
        ['end-user IP', detail.endUserIp],
        ['imported from', detail.importedFrom],
        ['session', detail.sessionJti],
      ];
      runtime.io.out(fields.map(([name, value]) => `${`${name}:`.padEnd(17)}${value ?? '-'}\n`).join(''));
      runtime.io.out('\n');
      printTable(
        runtime.io,
        ['FIELD', 'TYPE', 'NON-EMPTY'],
        detail.cellStats.fieldBreakdown.map((f) => [f.key, f.type, String(f.count)]),
      );
    });
}
