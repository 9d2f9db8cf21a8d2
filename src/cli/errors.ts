import { CommanderError } from 'commander';
import { ConfigError } from '../config/config';
import { databaseFaultError, ServiceError, type ErrorCode } from '../services/errors';
import type { CliIo } from './io';

/** Exit code of usage errors (unknown or missing options and arguments) and bad settings. */
export const USAGE_EXIT_CODE = 2;

/**
 * The exit code of every error code: the one place this mapping lives (a new code must be given one here).
 * 2 invalid input, 3 not found, 4 conflict, 5 credentials, 1 anything else.
 */
export const EXIT_CODES: Record<ErrorCode, number> = {
  validation_failed: 2,
  invalid_json: 2,
  payload_too_large: 2,
  unsupported_media_type: 2,
  not_found: 3,
  conflict: 4,
  import_not_pending: 4,
  limit_reached: 4,
  quota_exceeded: 4,
  missing_credentials: 5,
  invalid_api_key: 5,
  invalid_session: 5,
  wrong_key_kind: 5,
  origin_not_allowed: 5,
  secret_key_in_browser: 5,
  template_not_allowed: 5,
  host_not_allowed: 5,
  headers_too_large: 2,
  request_timeout: 1,
  method_not_allowed: 1,
  rate_limited: 1,
  internal_error: 1,
  database_unavailable: 1,
  insufficient_storage: 1,
  upload_expired: 3,
  precondition_failed: 2,
  range_not_satisfiable: 2,
};

/**
 * Prints an error to stderr as ONE line, `error [code]: message` (then, in parentheses, any details the
 * message does not already say), and returns the exit code. Commander's usage errors get the same one-line form, as `validation_failed`.
 */
export function reportCliError(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) return reportCommanderError(error, io);
  if (error instanceof ConfigError) {
    io.err(`${oneLine(`error [invalid_config]: ${error.message}`)}\n`);
    return USAGE_EXIT_CODE;
  }
  const serviceError =
    error instanceof ServiceError
      ? error
      : (databaseFaultError(error) ?? new ServiceError('internal_error', error instanceof Error ? error.message : String(error)));
  // Details the message does not already say follow it in parentheses: one failure, one line.
  const details = (serviceError.details ?? []).map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).filter((line) => line !== serviceError.message);
  io.err(`${oneLine(`error [${serviceError.code}]: ${serviceError.message}${details.length > 0 ? ` (${details.join('; ')})` : ''}`)}\n`);
  return EXIT_CODES[serviceError.code];
}

/** Line breaks (a message's own, or a value quoted in it) become spaces: every failure is one line on stderr. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ');
}

function reportCommanderError(error: CommanderError, io: CliIo): number {
  // Help or version printed on request.
  if (error.exitCode === 0) return 0;
  // `importd` or `importd env` without a subcommand: commander has printed that command's help to stderr.
  if (error.code === 'commander.help') return USAGE_EXIT_CODE;
  // Commander puts its suggestion on a second line ("(Did you mean --origin?)"): folded into the one line.
  const message = error.message.replace(/^error: /, '');
  io.err(`${oneLine(`error [validation_failed]: ${message} (see --help)`)}\n`);
  return USAGE_EXIT_CODE;
}
