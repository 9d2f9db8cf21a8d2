import type { RequestListener } from 'node:http';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { Config } from '../config/config';
import { newRequestId } from '../core/ids';
import type { Logger } from '../core/logger';
import { ServiceError } from '../services/errors';
import { errorAnswer, toServiceError, writeErrorAnswer } from './errors';
import { commonHeaders } from './respond';
import { lingerBeforeClose } from './linger';
import type { ImportdMetrics } from './metrics/registry';
import { requestRecorder, UNMATCHED_ROUTE, whenAnswered } from './metrics/request-metrics';
import { logRequest, logsRequests } from './middleware/request-log';

/**
 * node-server's listener for the app. node-server builds each request's URL from its Host header and target
 * before the app sees it, and would answer one it cannot build (`Host: localhost:99999`, `Host: a b`, a Host
 * the URL reads another host from) with a bare 400: no body, no X-Request-Id. Its refusal is answered here
 * instead, where the request is at hand, in the API's error shape, counted and logged as the app's answers are.
 */
export function appListener(fetch: (request: Request) => Response | Promise<Response>, config: Config, logger: Logger, metrics?: ImportdMetrics): RequestListener {
  const record = metrics ? requestRecorder(metrics) : undefined;
  const log = logsRequests(config.logLevel);
  const listener = getRequestListener(fetch, {
    // For requests without a Host header, as node-server's serve() passes it.
    hostname: config.host,
    // Thrown back, the refusal rejects the listener's promise (node-server's own answers never do) and is
    // answered below with the request at hand. Anything else (a fetch that throws or rejects: Hono's does only
    // when a handler throws a non-Error or onError itself throws) is answered internal_error in the one shape,
    // logged with its request id: node-server would send its message as text.
    errorHandler: (error) => {
      if (error instanceof RequestError) throw error;
      const requestId = newRequestId();
      const { status, body, headers } = errorAnswer(toServiceError(error, logger, requestId), requestId);
      return new Response(JSON.stringify(body), { status, headers: { ...commonHeaders(requestId), ...headers, 'Content-Type': 'application/json' } });
    },
  });
  return (incoming, outgoing) => {
    const started = performance.now();
    listener(incoming, outgoing).catch((error: unknown) => {
      const requestId = newRequestId();
      const refusal = error instanceof RequestError ? unbuiltUrl(incoming.headers.host) : toServiceError(error, logger, requestId);
      // Refused before its body was read, as the app's answers are (app.ts): Node would otherwise keep the
      // connection and read the body whole, however long it says it is; it is closed, the rest dropped a while.
      if (!incoming.complete) {
        outgoing.setHeader('Connection', 'close');
        lingerBeforeClose(incoming);
      }
      const status = writeErrorAnswer(outgoing, refusal, requestId);
      const method = incoming.method ?? '';
      if (record) whenAnswered(outgoing, () => record(method, UNMATCHED_ROUTE, status, started));
      if (log) logRequest(logger, method, (incoming.url ?? '').split('?', 1)[0]!, status, started, requestId);
    });
  };
}

const unbuiltUrl = (host: string | undefined) =>
  new ServiceError(
    'validation_failed',
    host === undefined ? 'the request target is not a valid URL' : `the Host header ${JSON.stringify(host)} and the request target do not make a valid URL`,
  );
