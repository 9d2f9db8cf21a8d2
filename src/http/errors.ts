import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { databaseFaultError, RowsInvalidError, ServiceError, type ErrorCode, type ErrorDetail, type RowErrorItem } from '../services/errors';
import type { Logger } from '../core/logger';
import { commonHeaders, respondJson, setHeader, type HeaderRecord } from './respond';

/** The HTTP status of every error code: the one place this mapping lives. */
export const ERROR_STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  invalid_json: 400,
  validation_failed: 400,
  missing_credentials: 401,
  invalid_api_key: 401,
  invalid_session: 401,
  wrong_key_kind: 403,
  origin_not_allowed: 403,
  secret_key_in_browser: 403,
  template_not_allowed: 403,
  // Misdirected Request: asked for by a name this server does not answer to (embed demo's DNS-rebinding guard).
  host_not_allowed: 421,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  import_not_pending: 409,
  limit_reached: 409,
  request_timeout: 408,
  payload_too_large: 413,
  quota_exceeded: 413,
  headers_too_large: 431,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  database_unavailable: 503,
  insufficient_storage: 507,
  // tus: an unfinished upload past IMPORTD_UPLOAD_EXPIRE_SECONDS (410 Gone, as the protocol asks).
  upload_expired: 410,
  // tus: a request without the Tus-Resumable header the protocol requires.
  precondition_failed: 412,
  range_not_satisfiable: 416,
};

const HTTP_EXCEPTION_CODES: Partial<Record<number, [ErrorCode, string]>> = {
  400: ['invalid_json', 'the request body is not valid JSON'],
  413: ['payload_too_large', 'the request body is too large'],
  415: ['unsupported_media_type', 'the request body must be sent as application/json'],
};

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: ErrorDetail[]; errors?: RowErrorItem[]; errorCount?: number; requestId: string };
}

/** A ServiceError in the one error shape of the API: its status, body and the headers that go with it. */
export function errorAnswer(error: ServiceError, requestId: string): { status: ContentfulStatusCode; body: ErrorBody; headers: HeaderRecord } {
  const body: ErrorBody = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details && { details: error.details }),
      ...(error instanceof RowsInvalidError && { errors: error.errors, errorCount: error.errorCount }),
      requestId,
    },
  };
  const headers: HeaderRecord = {};
  if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds);
  // Rows that break their template's rules under `reject`: the body was well-formed, its data is not.
  const status = error instanceof RowsInvalidError ? 422 : ERROR_STATUS[error.code];
  // RFC 9110: a 401 names the scheme it wants (RFC 6750 adds the error for a refused token).
  if (status === 401) headers['WWW-Authenticate'] = `Bearer realm="importd"${error.code === 'missing_credentials' ? '' : ', error="invalid_token"'}`;
  return { status, body, headers };
}

/** Renders a ServiceError as the answer to the request. */
export function errorResponse(c: Context, error: ServiceError): Response {
  const { status, body, headers } = errorAnswer(error, c.get('requestId') as string);
  for (const name in headers) setHeader(c, name, headers[name]!);
  return respondJson(c, body, status);
}

/**
 * Writes a ServiceError as the answer on a Node response, from a listener in front of Hono: what errorResponse
 * answers. Returns its status. A head already sent can only be ended.
 */
export function writeErrorAnswer(outgoing: ServerResponse, error: ServiceError, requestId: string): number {
  const { status, body, headers } = errorAnswer(error, requestId);
  if (outgoing.headersSent) {
    outgoing.end();
    return status;
  }
  const text = JSON.stringify(body);
  outgoing.writeHead(status, { ...commonHeaders(requestId), ...headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) });
  outgoing.end(text);
  return status;
}

/** Converts anything thrown while handling a request into a ServiceError; unknown errors become internal_error. */
export function toServiceError(error: unknown, logger: Logger, requestId: string): ServiceError {
  if (error instanceof ServiceError) return error;
  if (error instanceof HTTPException) {
    const known = HTTP_EXCEPTION_CODES[error.status];
    if (known) return new ServiceError(known[0], known[1]);
  }
  const fault = databaseFaultError(error);
  if (fault) {
    logger.warn('database fault', { requestId, code: fault.code, error: error instanceof Error ? error.message : String(error) });
    return fault;
  }
  logger.error('unhandled error', { requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return new ServiceError('internal_error', 'an internal error occurred; quote the request id when reporting it');
}
