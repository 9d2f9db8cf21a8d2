import type { Command } from 'commander';
import type { RawConfig } from '../config/config';
import { ServiceError, validationFailed } from '../services/errors';

/** Configuration overrides from the global flags (`--db`, and `--host`/`--port` where a command has them). */
export function configOverrides(command: Command): Partial<RawConfig> {
  const opts = command.optsWithGlobals<{ db?: string; host?: string; port?: string }>();
  return {
    ...(opts.db !== undefined && { IMPORTD_DB: opts.db }),
    ...(opts.host !== undefined && { IMPORTD_HOST: opts.host }),
    ...(opts.port !== undefined && { IMPORTD_PORT: opts.port }),
  };
}

/** Collects a repeatable option (`--origin a --origin b`). */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** A numeric flag, handed to the service as a number (or NaN, which its schema rejects with the path). */
export function cliNumber(text: string, path: string): number {
  if (!/^-?\d+(\.\d+)?$/.test(text.trim())) {
    throw new ServiceError('validation_failed', `${path}: expected a number`, [{ path, message: 'expected a number' }]);
  }
  return Number(text);
}

/**
 * Runs `work`, renaming the input paths a validation error names to the flags they came from
 * (`startDate: ...` becomes `--since: ...`), so the message points at what the operator typed.
 */
export async function inFlagTerms<T>(flags: Record<string, string>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ServiceError) || error.code !== 'validation_failed' || !error.details) throw error;
    throw validationFailed(error.details.map((detail) => ({ ...detail, path: flags[detail.path] ?? detail.path })));
  }
}
