import type { RequestListener, Server, ServerResponse } from 'node:http';

/** How often a drain closes the keep-alive connections that have gone idle since it began. */
const IDLE_SWEEP_MS = 100;

/**
 * The SIGTERM drain of a server (DESIGN.md "Configuration"): `listener` wraps the app's, so that once the
 * drain has begun every answer says `Connection: close` and its connection ends with it; `drain` stops
 * accepting connections, closes the idle ones (and those that go idle meanwhile), and at `graceMs` destroys
 * whatever is left. A response cut there ends without its terminating chunk (or short of its
 * Content-Length): its client sees an incomplete body, never a complete-looking short one.
 */
export function drainable(app: RequestListener): { listener: RequestListener; drain(server: Server, graceMs?: number): Promise<void> } {
  let draining = false;
  // Answers not yet begun when the drain starts are told then: their heads still can say it.
  const unanswered = new Set<ServerResponse>();
  return {
    listener(request, response) {
      if (draining) response.shouldKeepAlive = false;
      else {
        unanswered.add(response);
        response.once('close', () => unanswered.delete(response));
      }
      app(request, response);
    },
    drain(server, graceMs) {
      draining = true;
      for (const response of unanswered) if (!response.headersSent) response.shouldKeepAlive = false;
      unanswered.clear();
      return new Promise<void>((done) => {
        const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
        const cut = graceMs === undefined ? undefined : setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearInterval(sweep);
          clearTimeout(cut);
          done();
        });
        server.closeIdleConnections();
      });
    },
  };
}
