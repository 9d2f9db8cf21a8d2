import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CliIo } from '../../src/cli/io';
import { openDatabase } from '../../src/db/sqlite/open-database';
import { createPgTestDatabase, sqlOn, testEngine } from './test-database';
import { runCli } from '../../src/cli/program';
import type { CliRuntime } from '../../src/cli/runtime';
import { createRuntime } from '../../src/main';
import type { Harness } from './harness';

export interface CliHarness {
  dir: string;
  dbPath: string;
  /** Runs `importd ARGS` in-process on the temporary database; returns exit code and captured output. */
  run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Raw SQL (`?` placeholders) on the database over a connection of its own, for assertions on stored state. */
  sql<T = Record<string, any>>(text: string, ...params: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * A temporary folder and a migrated database (as `importd migrate` makes it), unless `fresh` leaves none
 * (on PostgreSQL: an empty database, as its operator creates it).
 */
export async function createCliHarness(env: Record<string, string> = {}, { fresh = false } = {}): Promise<CliHarness> {
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-cli-'));
  const pg = testEngine === 'postgres' ? await createPgTestDatabase({ migrated: !fresh }) : undefined;
  const dbPath = pg?.url ?? path.join(dir, 'importd.db');
  if (!fresh && !pg) openDatabase(dbPath).close();
  return {
    dir,
    dbPath,
    async run(...args) {
      let stdout = '';
      let stderr = '';
      const io: CliIo = { out: (text) => void (stdout += text), err: (text) => void (stderr += text), errIsTTY: false };
      const code = await runCli(createRuntime(io, { IMPORTD_DB: dbPath, ...env }), args);
      return { code, stdout, stderr };
    },
    sql: (text, ...params) => sqlOn(dbPath, text, ...params),
    close: async () => {
      rmSync(dir, { recursive: true, force: true });
      await pg?.drop();
    },
  };
}

/** Runs `importd ARGS` in-process over a harness's open database (so HTTP and CLI see the same data and clock). */
export function cliOnHarness(h: Harness) {
  return async (...args: string[]) => {
    let stdout = '';
    let stderr = '';
    const runtime: CliRuntime = {
      io: { out: (text) => void (stdout += text), err: (text) => void (stderr += text), errIsTTY: false },
      open: async () => ({ ctx: h.ctx, created: false, close: () => undefined }),
      loadConfig: () => h.ctx.config,
      serve: async () => undefined,
      version: 'test',
    };
    const code = await runCli(runtime, args);
    return { code, stdout, stderr };
  };
}
