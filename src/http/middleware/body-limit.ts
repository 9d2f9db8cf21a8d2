import type { MiddlewareHandler } from 'hono';
import { ServiceError } from '../../services/errors';
import type { AppEnv } from '../env';
import { errorResponse } from '../errors';

const tooLarge = (maxBytes: number, setting: string) => new ServiceError('payload_too_large', `the request body exceeds ${maxBytes} bytes (${setting})`);

/**
 * Refuses request bodies over `maxBytes` with 413 payload_too_large, without ever buffering them:
 * - a declared `Content-Length` over the limit is refused before a byte of the body is read (Node's parser
 *   guarantees the body is no longer than declared, so a smaller one needs no counting);
 * - a body of unknown length (chunked) is counted as the handler reads it, and the read fails as soon as
 *   the count passes the limit. hono's own bodyLimit buffers such bodies in full before the handler runs,
 *   which would defeat streamed imports, hence this middleware.
 */
export function bodyLimit(maxBytes: number, setting: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = c.req.header('Content-Length');
    if (declared !== undefined && c.req.header('Transfer-Encoding') === undefined) {
      if (Number(declared) > maxBytes) throw tooLarge(maxBytes, setting);
      return next();
    }
    const body = c.req.raw.body;
    if (!body) return next();
    let seen = 0;
    let exceeded = false;
    const counted = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes) {
            exceeded = true;
            controller.error(tooLarge(maxBytes, setting));
          } else controller.enqueue(chunk);
        },
      }),
    );
    c.req.raw = new Request(c.req.raw, { body: counted, duplex: 'half' } as RequestInit);
    await next();
    // A body reader (hono's JSON validator, for one) may report the failed read as bad JSON: the size wins.
    if (exceeded && c.res.status !== 413) c.res = errorResponse(c, tooLarge(maxBytes, setting));
  };
}
