import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { newRequestId } from '../core/ids';
import type { Logger } from '../core/logger';
import type { ErrorCode } from '../services/errors';
import { ERROR_STATUS, type ErrorBody } from './errors';

/** Which of our codes answers each failure Node's HTTP parser reports before the app sees a request. */
function codeOf(error: Error & { code?: string }): [ErrorCode, string] {
  if (error.code === 'HPE_HEADER_OVERFLOW') return ['headers_too_large', 'the request headers are too large'];
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return ['request_timeout', 'the request was not received in time'];
  return ['validation_failed', 'the request is not valid HTTP/1.1'];
}

/**
 * The server's `clientError` listener: Node's own 400, 408 and 431 answers, in the API's JSON error shape
 * with a request id (Node would send a bare status line). Like Node's default, it answers only when nothing
 * was written on the connection yet, then closes it.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex, logger: Logger): void {
  const written = (socket as Duplex & { bytesWritten?: number }).bytesWritten ?? 0;
  if (error.code === 'ECONNRESET' || !socket.writable || written > 0) {
    socket.destroy();
    return;
  }
  const [code, message] = codeOf(error);
  const requestId = newRequestId();
  const status = ERROR_STATUS[code];
  const body: ErrorBody = { error: { code, message, requestId } };
  const text = JSON.stringify(body);
  logger.warn('client error', { requestId, status, code, reason: error.code ?? error.message });
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(text)}`,
      `X-Request-Id: ${requestId}`,
      'X-Content-Type-Options: nosniff',
      'Cache-Control: no-store',
      'Connection: close',
      '',
      text,
    ].join('\r\n'),
  );
}
