import { databaseFault, UniqueViolationError } from '../db/store';

/** Every error code a user can see (DESIGN.md "Errors"). */
export const ERROR_CODES = [
  'invalid_json',
  'validation_failed',
  'missing_credentials',
  'invalid_api_key',
  'invalid_session',
  'wrong_key_kind',
  'origin_not_allowed',
  'secret_key_in_browser',
  'template_not_allowed',
  'host_not_allowed',
  'not_found',
  'method_not_allowed',
  'conflict',
  'import_not_pending',
  'limit_reached',
  'request_timeout',
  'payload_too_large',
  'quota_exceeded',
  'headers_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
  'database_unavailable',
  'insufficient_storage',
  'upload_expired',
  'precondition_failed',
  'range_not_satisfiable',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDetail {
  path: string;
  message: string;
}

/** The one error type the service layer throws; each transport maps its code once. */
export class ServiceError extends Error {
  override name = 'ServiceError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** One invalid cell of a refused import (onInvalid `reject`). */
export interface RowErrorItem {
  rowIndex: number;
  key: string;
  code: string;
  message: string;
  value: string | number | boolean | null;
}

/**
 * validation_failed for an import whose rows break its template's rules under `reject`: the transports add
 * `errors` (the first ones) and `errorCount`, and HTTP answers 422 (the request is well-formed; its data is not).
 */
export class RowsInvalidError extends ServiceError {
  constructor(
    readonly errors: RowErrorItem[],
    readonly errorCount: number,
  ) {
    const first = errors[0];
    super(
      'validation_failed',
      `${errorCount} invalid cell${errorCount === 1 ? '' : 's'}${first ? `; the first: rows.${first.rowIndex}.${first.key}: ${first.message}` : ''}`,
      errors.slice(0, 20).map((error) => ({ path: `rows.${error.rowIndex}.${error.key}`, message: `${error.code}: ${error.message}` })),
    );
  }
}

export function notFound(what: string): ServiceError {
  return new ServiceError('not_found', `${what} not found`);
}

export function validationFailed(details: ErrorDetail[]): ServiceError {
  const first = details[0];
  const message = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'invalid input';
  return new ServiceError('validation_failed', message, details);
}

export function conflict(message: string): ServiceError {
  return new ServiceError('conflict', message);
}

/** A per-account cap is reached: the message names the setting that sets it. */
export function limitReached(what: string, max: number, setting: string): ServiceError {
  return new ServiceError('limit_reached', `the account already has ${max} ${what} (${setting}); remove one or raise the setting`);
}

/** Converts zod issues to error details with dotted paths (`allowedOrigins.3`). */
export function zodDetails(
  issues: readonly { path: readonly PropertyKey[]; message: string; code?: string; keys?: readonly string[] }[],
): ErrorDetail[] {
  return issues.flatMap((issue) => {
    const path = issue.path.map(String);
    // An unknown member is reported at its own path (`lightColors.extra`), not at its parent's.
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      return issue.keys.map((key) => ({ path: [...path, key].join('.'), message: 'is not an allowed member' }));
    }
    return [{ path: path.join('.'), message: issue.message }];
  });
}

/** Awaits a store write, answering conflict with `message` when a unique name or key is taken (never a 500). */
export async function conflictOnUnique<T>(write: Promise<T>, message: string): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof UniqueViolationError) throw conflict(message);
    throw error;
  }
}

/** Seconds a client is asked to wait before it retries a request the database could not serve. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The typed error of a storage failure that is no bug (src/db/store/faults.ts): the database cannot be reached
 * or did not answer in time (503, retry later), or has no room left (507). Undefined for anything else.
 */
export function databaseFaultError(error: unknown): ServiceError | undefined {
  const fault = databaseFault(error);
  if (fault === 'unavailable') {
    return new ServiceError('database_unavailable', 'the database is unavailable; retry later', undefined, DATABASE_RETRY_AFTER_SECONDS);
  }
  if (fault === 'full') return new ServiceError('insufficient_storage', 'the database has no space left; an operator must free some');
  return undefined;
}
