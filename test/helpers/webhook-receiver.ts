import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers a request: status and body, or a custom handler (e.g. never answer). */
export type Answer = { status: number; body?: string } | ((response: ServerResponse) => void);

/**
 * A real local webhook receiver (node:http on 127.0.0.1): records every request and answers with
 * `answer` (by default 200 "ok"), which a test may change at any time.
 */
export async function startReceiver(port = 0) {
  const received: ReceivedWebhook[] = [];
  let answer: Answer = { status: 200, body: 'ok' };
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body });
      if (typeof answer === 'function') return answer(response);
      response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actualPort = (server.address() as AddressInfo).port;
  return {
    port: actualPort,
    url: (path = '/hook') => `http://127.0.0.1:${actualPort}${path}`,
    received,
    answer(next: Answer) {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
