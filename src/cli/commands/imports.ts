import type { Command } from 'commander';
import { deleteImport } from '../../services/compliance';
import { approveImport, getImport, listImports, MAX_REVIEW_REASON, readImportErrors, rejectImport, toDetail, toListItem, type ImportRowsPage, type ListImportsQuery } from '../../services/imports';
import { printJson, printTable } from '../io';
import { configOverrides, inFlagTerms } from '../options';
import { withAccount, type CliRuntime } from '../runtime';

interface ListOptions {
  limit?: string;
  cursor?: string;
  environment?: string;
  template?: string;
  userEmail?: string;
  since?: string;
  until?: string;
  status?: string;
  account?: string;
  json?: boolean;
}

/** The flag of each GET /v1/imports query member. */
const LIST_FLAGS = { limit: '--limit', cursor: '--cursor', environment: '--environment', templateId: '--template', userEmail: '--user-email', startDate: '--since', endDate: '--until', status: '--status' };

export function registerImports(program: Command, runtime: CliRuntime): void {
  const imports = program.command('imports').description('inspect stored imports');

  imports
    .command('list')
    .description('list imports, newest first (one page; --cursor for the next)')
    .option('--limit <n>', 'page size 0-100 (default 20)')
    .option('--cursor <cursor>', 'nextCursor of the previous page')
    .option('--environment <name>', 'only imports through this environment')
    .option('--template <id>', 'only imports of this template (its id)')
    .option('--user-email <text>', "only imports whose end-user e-mail contains this (case-insensitive)")
    .option('--since <date>', 'only imports created at or after this date or time (ISO 8601)')
    .option('--until <date>', 'only imports created before this date or time (ISO 8601)')
    .option('--status <status>', 'only imports of this review status: completed, pending_review or rejected')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON (the GET /v1/imports response)')
    .action(async (options: ListOptions, command: Command) => {
      // The API's own query, so filters mean what they mean there (and a cursor works in both).
      const page = await inFlagTerms(LIST_FLAGS, () =>
        withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) =>
          listedImports(await listImports(ctx, accountId, {
            limit: options.limit,
            cursor: options.cursor,
            environment: options.environment,
            templateId: options.template,
            userEmail: options.userEmail,
            startDate: options.since,
            endDate: options.until,
            // Checked by the service's schema, as the API's query is.
            status: options.status as ListImportsQuery['status'],
          })),
        ),
      );
      if (options.json) return printJson(runtime.io, page);
      printTable(
        runtime.io,
        ['ID', 'STATUS', 'CREATED', 'ROWS', 'END USER', 'FROM', 'TEMPLATE'],
        page.data.map((i) => [i.id, i.status, i.createdAt, String(i.rowCount), i.endUserId ?? '-', i.importedFrom ?? '-', i.templateId]),
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
      const detail = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) =>
        toDetail(await getImport(ctx, accountId, importId)),
      );
      if (options.json) return printJson(runtime.io, detail);
      const fields: [string, string | null][] = [
        ['id', detail.id],
        ['status', detail.status],
        ['reviewed', detail.reviewedAt],
        ['review reason', detail.reviewReason],
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

  imports
    .command('errors')
    .description("summarise one import's invalid cells by field and code (as GET /v1/imports/{id}/errors)")
    .argument('<importId>', 'import id')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON (the GET /v1/imports/{id}/errors response)')
    .action(async (importId: string, options: { account?: string; json?: boolean }, command: Command) => {
      const summary = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) => readImportErrors(ctx, accountId, importId));
      if (options.json) return printJson(runtime.io, summary);
      runtime.io.out(`${summary.invalidRows} invalid rows, ${summary.errorCount} invalid cells\n`);
      if (summary.errors.length === 0) return;
      printTable(
        runtime.io,
        ['FIELD', 'CODE', 'COUNT', 'EXAMPLES (ROW: VALUE)'],
        summary.errors.map((group) => [group.key, group.code, String(group.count), group.examples.map((e) => `${e.rowIndex}: ${JSON.stringify(e.value)}`).join(', ')]),
      );
    });

  for (const [verb, decide, effect] of [
    ['approve', approveImport, 'it counts from now on'],
    ['reject', rejectImport, 'it never counts'],
  ] as const) {
    imports
      .command(verb)
      .description(`${verb} one import pending review: ${effect} (as POST /v1/imports/{id}/${verb})`)
      .argument('<importId>', 'import id')
      .option('--reason <text>', `why (1-${MAX_REVIEW_REASON} characters; kept with the decision and sent in its webhook)`)
      .option('--account <name>', 'account (default: default)')
      .option('--json', `print JSON (the POST /v1/imports/{id}/${verb} response)`)
      .action(async (importId: string, options: { reason?: string; account?: string; json?: boolean }, command: Command) => {
        const reviewed = await inFlagTerms({ reason: '--reason' }, () =>
          withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) =>
            toDetail(await decide(ctx, accountId, importId, options.reason === undefined ? {} : { reason: options.reason })),
          ),
        );
        if (options.json) return printJson(runtime.io, reviewed);
        runtime.io.out(`import ${reviewed.id} ${reviewed.status} at ${reviewed.reviewedAt}\n`);
      });
  }

  imports
    .command('delete')
    .description('delete one import and all its rows (as DELETE /v1/imports/{id})')
    .argument('<importId>', 'import id')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON { id, deleted, rows }')
    .action(async (importId: string, options: { account?: string; json?: boolean }, command: Command) => {
      const deleted = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) => await deleteImport(ctx, accountId, importId));
      if (options.json) return printJson(runtime.io, deleted);
      runtime.io.out(`import ${deleted.id} deleted (${deleted.rows} rows)\n`);
    });
}

/** A page of stored imports in the GET /v1/imports shape. */
function listedImports({ rows, pagination }: ImportRowsPage) {
  return { data: rows.map(toListItem), pagination };
}
