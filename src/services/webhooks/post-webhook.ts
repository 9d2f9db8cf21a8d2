import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { VERSION } from '../../version';
import { checkLiteralTarget, guardedLookup } from './target-address';

/** What the receiver answered, or why it could not be reached. */
export interface PostOutcome {
  ok: boolean;
  statusCode: number | null;
  /** The first bytes of the response body (at most EXCERPT_BYTES). */
  response: string | null;
  error: string | null;
}

export const EXCERPT_BYTES = 256;

export interface PostOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** The signing time (the `webhook-timestamp` header). */
  at: Date;
}

/**
 * The answer is the receiver's text: PostgreSQL refuses NUL in text, so an attempt whose excerpt held one
 * could never be recorded and its delivery would be sent again and again. NUL becomes U+FFFD, as undecodable
 * bytes already do.
 */
function storable(text: string | null): string | null {
  return text === null ? null : text.replaceAll('\0', '\uFFFD');
}

/**
 * Sends one attempt per Standard Webhooks: POST of `payload` with `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` (signed by the `standardwebhooks` package with `secret`). Redirects are not followed
 * (a 3xx is a failure), only the first bytes of the answer are read, and the whole attempt (lookup, connect,
 * answer) is cut at `timeoutMs`. Unless allowPrivate, only public addresses are connected to. Never throws.
 */
export function postWebhook(url: string, secret: string, eventId: string, payload: string, options: PostOptions): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      resolve({ ...outcome, response: storable(outcome.response), error: storable(outcome.error) });
    };
    const fail = (error: string) => finish({ ok: false, statusCode: null, response: null, error });
    const timer = setTimeout(() => fail(`timed out after ${options.timeoutMs} ms`), options.timeoutMs);
    let request: http.ClientRequest | undefined;
    try {
      const target = new URL(url);
      if (!options.allowPrivate) checkLiteralTarget(target);
      const signature = new Webhook(secret).sign(eventId, options.at, payload);
      const body = Buffer.from(payload);
      request = (target.protocol === 'https:' ? https : http).request(target, {
        method: 'POST',
        agent: false,
        lookup: options.allowPrivate ? undefined : guardedLookup,
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          'user-agent': `importd/${VERSION}`,
          'webhook-id': eventId,
          'webhook-timestamp': String(Math.floor(options.at.getTime() / 1000)),
          'webhook-signature': signature,
        },
      });
      request.on('error', (error) => fail(error.message));
      request.on('response', (response) => {
        const statusCode = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES);
          finish({ ok: statusCode >= 200 && statusCode < 300, statusCode, response: excerpt.toString('utf8'), error: null });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          // Enough read: the rest of the body is never downloaded.
          if (size >= EXCERPT_BYTES) done();
        });
        response.on('end', done);
        response.on('error', done);
      });
      request.end(body);
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
  });
}
