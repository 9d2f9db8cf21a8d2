import { Command, CommanderError, Option } from 'commander';
import { registerAccount } from './commands/account';
import { registerBackup } from './commands/backup';
import { registerEmbed } from './commands/embed';
import { registerEndUser } from './commands/end-user';
import { registerEnv } from './commands/env';
import { registerExport } from './commands/export';
import { registerRecords } from './commands/records';
import { registerImport } from './commands/import';
import { registerImports } from './commands/imports';
import { registerHealthcheck } from './commands/healthcheck';
import { registerMappings } from './commands/mappings';
import { registerMigrate } from './commands/migrate';
import { registerServe } from './commands/serve';
import { registerSession } from './commands/session';
import { registerStatus } from './commands/status';
import { registerTemplates } from './commands/templates';
import { registerWebhooks } from './commands/webhooks';
import { registerThemes } from './commands/themes';
import { reportCliError } from './errors';
import type { CliRuntime } from './runtime';

/**
 * The `importd` command tree; output goes through the runtime's io so tests can capture it. Subcommands
 * inherit exitOverride and the output hooks because they are set before any subcommand is added.
 */
export function buildProgram(runtime: CliRuntime): Command {
  const program = new Command('importd')
    .description('importd: the self-hosted backend of the spreadsheet-import SDK')
    .version(runtime.version, '-V, --version', 'print the version')
    // `-v` too, as earlier releases had it and many tools do.
    .addOption(new Option('-v').hideHelp())
    .on('option:v', () => {
      runtime.io.out(`${runtime.version}\n`);
      throw new CommanderError(0, 'commander.version', runtime.version);
    })
    .option('--db <path>', 'SQLite database file (IMPORTD_DB, default ./data/importd.db)')
    // Every command's help lists --db, which it reads as much as the program does.
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (text) => runtime.io.out(text),
      writeErr: (text) => runtime.io.err(text),
      // Usage errors are printed once, in the CLI's own format, by reportCliError.
      outputError: () => undefined,
    });
  program
    .command('version')
    .description('print the version (the same as --version and as the API document\'s info.version)')
    .action(() => runtime.io.out(`${runtime.version}\n`));
  registerServe(program, runtime);
  registerMigrate(program, runtime);
  registerAccount(program, runtime);
  registerEnv(program, runtime);
  registerSession(program, runtime);
  registerTemplates(program, runtime);
  registerThemes(program, runtime);
  registerImports(program, runtime);
  registerImport(program, runtime);
  registerExport(program, runtime);
  registerRecords(program, runtime);
  registerMappings(program, runtime);
  registerHealthcheck(program, runtime);
  registerStatus(program, runtime);
  registerEndUser(program, runtime);
  registerWebhooks(program, runtime);
  registerBackup(program, runtime);
  registerEmbed(program, runtime);
  return program;
}

/** Runs the program on argv (user arguments only) and returns the exit code. */
export async function runCli(runtime: CliRuntime, args: string[]): Promise<number> {
  try {
    await buildProgram(runtime).parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    return reportCliError(error, runtime.io);
  }
}
