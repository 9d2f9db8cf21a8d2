import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';

/** How long, and how much of a refused body, is read and dropped before its connection is closed. */
export const LINGER_MS = 2_000;
export const LINGER_BYTES = 64 * 1024 * 1024;

/**
 * For an answer given before the request's body was read whole (a body refused on its declared length or as it
 * passes a limit), sent with `Connection: close`. Node closes such a socket as soon as the answer is written
 * (`destroySoon`); a client still sending then gets a reset, and may lose the answer with it (undici's fetch
 * fails, browsers show a network error instead of the 413). So the socket first sends its end, then reads and
 * drops what the client still sends, until the body ends or LINGER_MS / LINGER_BYTES pass (a lingering close,
 * as nginx does), and only then closes.
 */
export function lingerBeforeClose(incoming: IncomingMessage): void {
  const socket = incoming.socket;
  let lingering = false;
  socket.destroySoon = () => {
    if (lingering) return;
    lingering = true;
    if (incoming.complete) return Socket.prototype.destroySoon.call(socket);
    let bytes = 0;
    const close = () => {
      clearTimeout(timer);
      incoming.off('data', drop).off('end', close).off('error', close).off('aborted', close);
      Socket.prototype.destroySoon.call(socket);
    };
    const drop = (chunk: Buffer) => {
      bytes += chunk.byteLength;
      if (bytes > LINGER_BYTES) close();
    };
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    socket.end();
    // The body's web stream (which stopped reading it) would pause the request again on every chunk.
    incoming.removeAllListeners('data');
    incoming.on('data', drop).once('end', close).once('error', close).once('aborted', close);
    incoming.resume();
  };
}
