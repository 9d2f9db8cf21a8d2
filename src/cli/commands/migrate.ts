import type { Command } from 'commander';
import { configOverrides } from '../options';
import type { CliRuntime } from '../runtime';

export function registerMigrate(program: Command, runtime: CliRuntime): void {
  program
    .command('migrate')
    .description('create the database if missing and apply pending migrations')
    .action(async (_options, command: Command) => {
      const { ctx, created, close } = await runtime.open(configOverrides(command), { create: true });
      close();
      runtime.io.out(created ? `created database ${ctx.config.dbPath}\n` : `database ${ctx.config.dbPath} is up to date\n`);
    });
}
