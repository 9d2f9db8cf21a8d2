import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Command } from 'commander';
import { EXIT_CODES } from '../../src/cli/errors';
import { buildProgram } from '../../src/cli/program';
import type { CliRuntime } from '../../src/cli/runtime';
import { readDoc, tableRows, withoutCodeBlocks } from './markdown';

// docs/cli.md against the program commander builds: a section `### importd <command>` for every command
// that runs something, each naming every flag of its command, and no section for a command that is gone.
const PAGE = withoutCodeBlocks(readDoc('docs/cli.md'));

const unused = (): never => {
  throw new Error('the program is only inspected here, never run');
};
const runtime: CliRuntime = { io: { out: unused, err: unused, errIsTTY: false }, open: unused, loadConfig: unused, serve: unused, version: '0.0.0' };

/** Every command path that runs something (`env create`, `serve`), with its long flags; `help` is commander's. */
function leafCommands(command: Command, prefix: string[] = []): Map<string, string[]> {
  const leaves = new Map<string, string[]>();
  for (const sub of command.commands) {
    if (sub.name() === 'help') continue;
    const path = [...prefix, sub.name()];
    if (sub.commands.length === 0) leaves.set(path.join(' '), sub.options.map((option) => option.long!).filter(Boolean));
    else for (const [name, flags] of leafCommands(sub, path)) leaves.set(name, flags);
  }
  return leaves;
}

const commands = leafCommands(buildProgram(runtime));

/** The page's `### importd ...` sections, by command path, with their text up to the next heading. */
const sections = new Map<string, string>();
for (const match of PAGE.matchAll(/^### importd (.+)\n([\s\S]*?)(?=^#{1,3} |(?![\s\S]))/gm)) sections.set(match[1]!.trim(), match[2]!);

describe('docs/cli.md', () => {
  it('finds the program\'s commands (the walk itself works)', () => {
    assert.ok(commands.has('env create') && commands.has('serve') && commands.get('export')!.includes('--out'));
  });

  it('has a section for every command the program registers', () => {
    assert.deepEqual([...commands.keys()].filter((name) => !sections.has(name)), []);
  });

  it('has no section for a command the program does not register', () => {
    assert.deepEqual([...sections.keys()].filter((name) => !commands.has(name)), []);
  });

  it('names every flag of a command in its section', () => {
    for (const [name, flags] of commands) {
      const missing = flags.filter((flag) => !new RegExp(`${flag}(?![\\w-])`).test(sections.get(name) ?? ''));
      assert.deepEqual(missing, [], `importd ${name}`);
    }
  });

  it('names no flag its command does not have', () => {
    for (const [name, text] of sections) {
      const known = new Set([...(commands.get(name) ?? []), '--db', '--help', '--version']);
      const named = [...new Set(text.match(/(?<![\w-])--[a-z][a-z-]*/g))].filter((flag) => !known.has(flag));
      assert.deepEqual(named, [], `importd ${name}`);
    }
  });

  it('gives every error code the exit code the CLI uses', () => {
    const documented = new Map<string, number>();
    for (const { header, cells } of tableRows(PAGE)) {
      if (header[0] !== 'exit') continue;
      for (const code of cells[2]!.matchAll(/`([a-z_]+)`/g)) documented.set(code[1]!, Number(cells[0]));
    }
    // invalid_config is the CLI's own code for a bad setting (src/cli/errors.ts), not a service error.
    assert.equal(documented.get('invalid_config'), 2);
    documented.delete('invalid_config');
    assert.deepEqual(Object.fromEntries([...documented].sort()), Object.fromEntries(Object.entries(EXIT_CODES).sort()));
  });
});
