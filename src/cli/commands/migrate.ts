import type { Command } from 'commander';
import { configOverrides } from '../options';
import { withServices, type CliRuntime } from '../runtime';

export function registerMigrate(program: Command, runtime: CliRuntime): void {
  program
    .command('migrate')
    .description('create the database if missing and apply pending migrations')
    .action(async (_options, command: Command) => {
      const overrides = configOverrides(command);
      await withServices(runtime, overrides, () => undefined);
      runtime.io.out(`database ${runtime.loadConfig(overrides).dbPath} is up to date\n`);
    });
}
