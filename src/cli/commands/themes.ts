import type { Command } from 'commander';
import { getTheme, setTheme, type ThemeInput } from '../../services/themes';
import { printJson } from '../io';
import { configOverrides } from '../options';
import { readJsonDocument } from '../read-json';
import { withAccount, type CliRuntime } from '../runtime';

export function registerThemes(program: Command, runtime: CliRuntime): void {
  const themes = program.command('themes').description("the account's theme (the SDK's colors, radius, sizes, effects)");
  themes
    .command('show')
    .description('print the theme as JSON (the GET /v1/themes body; edit it and give it to `themes set`)')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print JSON (what it always prints; accepted like on every other command)')
    .action(async (options: { account?: string }, command: Command) => {
      const theme = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) => await getTheme(ctx, accountId));
      printJson(runtime.io, theme);
    });

  themes
    .command('set')
    .description('create or replace the theme from a JSON file (or - for stdin), as PUT /v1/themes checks it')
    .argument('<file>', 'JSON document with name, description, lightColors, darkColors, radius, sizes, effects; - reads stdin')
    .option('--account <name>', 'account (default: default)')
    .option('--json', 'print the stored theme as JSON')
    .action(async (file: string, options: { account?: string; json?: boolean }, command: Command) => {
      const input = (await readJsonDocument(file, runtime.io)) as ThemeInput; // checked by the service's schema
      const { theme, created } = await withAccount(runtime, configOverrides(command), options.account, async (ctx, accountId) =>
        await setTheme(ctx, accountId, input),
      );
      if (options.json) return printJson(runtime.io, theme);
      runtime.io.out(`theme ${theme.name} ${created ? 'created' : 'replaced'} (id ${theme.id})\n`);
    });
}
