import type { Command } from 'commander';
import { exportRecords, listRecords, type ExportRecordsQuery } from '../../services/datasets';
import { checkOutputFile } from '../../services/files';
import { printJson } from '../io';
import { configOverrides } from '../options';
import { fileSink, stdoutSink } from '../output';
import { withAccount, type CliRuntime } from '../runtime';

interface ListOptions {
  env?: string;
  key?: string;
  limit?: string;
  cursor?: string;
  account?: string;
  json?: boolean;
}

interface ExportOptions {
  env?: string;
  format: string;
  safe?: boolean;
  out?: string;
  force?: boolean;
  account?: string;
}

/** `importd records list|export`: a keyed template's dataset (the same service as GET /v1/templates/{id}/records). */
export function registerRecords(program: Command, runtime: CliRuntime): void {
  const records = program.command('records').description("a keyed template's dataset: its current record per key");
  records
    .command('list')
    .description('list the current records, by key (with the import, time and end-user of their last write)')
    .argument('<template>', 'template id or key')
    .option('--env <name>', 'environment of the dataset (default: imports of no environment)')
    .option('--key <value>', 'only the record of this key (JSON array of the key values, or the value of a one-field key)')
    .option('--limit <n>', 'records per page (1-100)', '20')
    .option('--cursor <cursor>', 'the nextCursor of the previous page')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print the page as JSON')
    .action(async (template: string, options: ListOptions, command: Command) => {
      await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) => {
        const page = await listRecords(ctx, accountId, template, { environment: options.env, key: options.key, limit: options.limit, cursor: options.cursor });
        if (options.json) return printJson(runtime.io, page);
        for (const record of page.data) runtime.io.out(`${JSON.stringify(record.key)}\t${JSON.stringify(record.record)}\t${record.importId}\t${record.updatedAt}\t${record.endUserId ?? '-'}\n`);
        const { paging } = page.pagination;
        runtime.io.out(`${paging.count} of ${paging.total} records${paging.nextCursor ? `; next page: --cursor ${paging.nextCursor}` : ''}\n`);
      });
    });
  records
    .command('export')
    .description('write every current record (the same bytes as GET /v1/templates/{id}/records/export)')
    .argument('<template>', 'template id or key')
    .option('--env <name>', 'environment of the dataset (default: imports of no environment)')
    .option('--format <format>', 'csv, ndjson or json', 'csv')
    .option('--safe', "CSV: prefix cells starting with =, +, -, @ with '")
    .option('--out <file>', 'write to this file instead of stdout (0600; refuses an existing file)')
    .option('--force', 'with --out: replace an existing file')
    .option('--account <name>', 'account (default: default)')
    .action(async (template: string, options: ExportOptions, command: Command) => {
      await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) => {
        const query = { environment: options.env, format: options.format as ExportRecordsQuery['format'], safe: options.safe ? 'true' : 'false' } as const;
        const file = await exportRecords(ctx, accountId, template, query);
        const out = options.out === undefined ? undefined : checkOutputFile(ctx, { file: options.out, force: options.force === true, field: '--out' });
        const sink = out === undefined ? stdoutSink(runtime.io) : fileSink(out, options.force === true);
        try {
          for await (const piece of file.pieces) {
            if (!sink.open) break;
            await sink.write(piece.data);
          }
          await sink.close();
        } catch (error) {
          await sink.discard();
          throw error;
        }
      });
    });
}
