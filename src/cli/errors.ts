import { CommanderError } from 'commander';
import { ConfigError } from '../config/config';
import { ServiceError, type ErrorCode } from '../services/errors';
import type { CliIo } from './io';

/** The exit code of every error code: the one place this mapping lives. */
const EXIT_CODES: Partial<Record<ErrorCode, number>> = {
  validation_failed: 2,
  invalid_json: 2,
  not_found: 3,
  conflict: 4,
  missing_credentials: 5,
  invalid_api_key: 5,
  invalid_session: 5,
  wrong_key_kind: 5,
  origin_not_allowed: 5,
  secret_key_in_browser: 5,
  template_not_allowed: 5,
};

/** Prints an error to stderr as `error [code]: message` (plus details) and returns the exit code. */
export function reportCliError(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) return error.exitCode;
  if (error instanceof ConfigError) {
    io.err(`error [invalid_config]: ${error.message}\n`);
    return 2;
  }
  const serviceError =
    error instanceof ServiceError ? error : new ServiceError('internal_error', error instanceof Error ? error.message : String(error));
  io.err(`error [${serviceError.code}]: ${serviceError.message}\n`);
  for (const detail of serviceError.details ?? []) io.err(`  ${detail.path || '(input)'}: ${detail.message}\n`);
  return EXIT_CODES[serviceError.code] ?? 1;
}
