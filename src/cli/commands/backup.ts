import type { Command } from 'commander';
import { createBackup } from '../../services/backup';
import { printJson } from '../io';
import { configOverrides } from '../options';
import { withServices, type CliRuntime } from '../runtime';

export function registerBackup(program: Command, runtime: CliRuntime): void {
  program
    .command('backup')
    .description('write a consistent copy of the database to FILE; safe while the server runs')
    .argument('<file>', 'where to write the copy (an SQLite database file)')
    .option('--force', 'replace FILE if it exists')
    .option('--json', 'print JSON { file, pages, bytes, durationMs, filesDir }')
    .action(async (file: string, options: { force?: boolean; json?: boolean }, command: Command) => {
      const result = await withServices(runtime, configOverrides(command), (ctx) => createBackup(ctx, { file, force: options.force === true }));
      if (options.json) return printJson(runtime.io, result);
      runtime.io.out(`backup written to ${result.file} (${result.bytes} bytes, ${result.pages} pages, ${result.durationMs} ms)\n`);
      runtime.io.out(`uploaded files are not in it: copy ${result.filesDir} as well\n`);
    });
}
