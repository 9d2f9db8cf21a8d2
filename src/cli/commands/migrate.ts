import type { Command } from 'commander';
import { redactDatabaseUrl } from '../../core/database-url';
import { configOverrides } from '../options';
import type { CliRuntime } from '../runtime';

export function registerMigrate(program: Command, runtime: CliRuntime): void {
  program
    .command('migrate')
    .description('create the database if missing and apply pending migrations')
    .action(async (_options, command: Command) => {
      const { ctx, created, close } = await runtime.open(configOverrides(command), { create: true });
      await close();
      const shown = redactDatabaseUrl(ctx.config.dbPath);
      runtime.io.out(created ? `created database ${shown}\n` : `database ${shown} is up to date\n`);
    });
}
