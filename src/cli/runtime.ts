import type { Config, RawConfig } from '../config/config';
import { resolveAccount } from '../services/accounts';
import type { ServiceContext } from '../services/context';
import type { CliIo } from './io';

/** What commands need from the outside world; main.ts provides the real one, tests a temporary one. */
export interface CliRuntime {
  io: CliIo;
  /**
   * Loads configuration (flags over environment) and opens the migrated database. Only `create` makes a
   * missing database (then `created` is true); without it a missing database is not_found, naming the path.
   */
  open(overrides: Partial<RawConfig>, options?: { create?: boolean }): Promise<{ ctx: ServiceContext; created: boolean; close(): void | Promise<void> }>;
  loadConfig(overrides: Partial<RawConfig>): Config;
  /** Runs the HTTP server until it is told to stop; resolves once drained and closed. */
  serve(overrides: Partial<RawConfig>): Promise<void>;
  version: string;
}

/** Runs `work` with an open service context and always closes the database afterwards. */
export async function withServices<T>(
  runtime: CliRuntime,
  overrides: Partial<RawConfig>,
  work: (ctx: ServiceContext) => T | Promise<T>,
): Promise<T> {
  const { ctx, close } = await runtime.open(overrides);
  try {
    return await work(ctx);
  } finally {
    await close();
  }
}

/** withServices for a command on one account: the one `--account` names, or the default account without it. */
export async function withAccount<T>(
  runtime: CliRuntime,
  overrides: Partial<RawConfig>,
  account: string | undefined,
  work: (ctx: ServiceContext, accountId: string) => T | Promise<T>,
): Promise<T> {
  return await withServices(runtime, overrides, async (ctx) => await work(ctx, (await resolveAccount(ctx, account)).id));
}
