import type { Config, RawConfig } from '../config/config';
import type { ServiceContext } from '../services/context';
import type { CliIo } from './io';

/** What commands need from the outside world; main.ts provides the real one, tests a temporary one. */
export interface CliRuntime {
  io: CliIo;
  /** Loads configuration (flags over environment) and opens the migrated database. */
  open(overrides: Partial<RawConfig>): { ctx: ServiceContext; close(): void };
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
  const { ctx, close } = runtime.open(overrides);
  try {
    return await work(ctx);
  } finally {
    close();
  }
}
