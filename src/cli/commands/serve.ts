import type { Command } from 'commander';
import { configOverrides } from '../options';
import type { CliRuntime } from '../runtime';

export function registerServe(program: Command, runtime: CliRuntime): void {
  program
    .command('serve')
    .description('run the HTTP API until SIGTERM or SIGINT')
    .option('--host <host>', 'interface to listen on (IMPORTD_HOST, default 0.0.0.0)')
    .option('--port <port>', 'port to listen on (IMPORTD_PORT, default 8080)')
    .action(async (_options, command: Command) => {
      await runtime.serve(configOverrides(command));
    });
}
