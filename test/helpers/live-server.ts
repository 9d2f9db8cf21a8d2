import { connect, type Socket } from 'node:net';
import { createLogger } from '../../src/core/logger';
import { startServer, type RunningServer } from '../../src/http/server';
import type { Harness } from './harness';

export interface LiveServer extends RunningServer {
  url: string;
  /** What the server logged (its stdout, one JSON line each). */
  output: string[];
}

/** Serves a harness's app on a real socket at 127.0.0.1 on a free port, with the harness's configuration. */
export async function startLiveServer(h: Pick<Harness, 'ctx'> & { app: { fetch(request: Request): Response | Promise<Response> } }): Promise<LiveServer> {
  const output: string[] = [];
  const config = { ...h.ctx.config, host: '127.0.0.1', port: 0 };
  const server = await startServer(h.app.fetch, config, createLogger('info', (line) => output.push(line)));
  return { ...server, url: `http://127.0.0.1:${server.port}`, output };
}

/** A raw TCP connection, for requests no HTTP client would send (oversized heads, byte-by-byte writes). */
export function openSocket(port: number): Promise<Socket & { received(): string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(port, '127.0.0.1');
    const ended = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve(Object.assign(socket, { received: () => received, ended })));
    socket.once('error', reject);
  });
}

/** Resolves once `predicate` holds, polling every 10 ms; rejects after `timeoutMs`. */
export async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
