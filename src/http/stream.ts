const encoder = new TextEncoder();

/**
 * How long a streamed answer waits for its client to take the next piece. A client that stops reading holds
 * the pieces buffered for it (up to ~16 MiB of an export) and keeps a SIGTERM drain from finishing: past this
 * it is dropped, the producer stopped and its pieces freed. Exports go to customers' backends; a piece is at
 * most 4 MiB, so only a client slower than ~35 KB/s is dropped while still reading.
 */
export const STALLED_READER_MS = 120_000;

export interface PullOptions {
  /** Told each piece's rows and bytes as it is handed on (the export metrics). */
  sent?: (rows: number, bytes: number) => void;
  /** Told when the reader took nothing for `stalledAfterMs`: the caller drops the client (its socket). */
  stalled?: () => void;
  stalledAfterMs?: number;
}

/**
 * A byte stream over a generator of pieces (text, or UTF-8 bytes sent as they are), pulled as the client reads
 * (so a slow client holds back the producer instead of the server buffering the whole file). Each pull first
 * waits a turn of the event loop: the socket then writes out the piece just taken before the next is made.
 * Without it, on SQLite (whose reads are synchronous) the next pieces were encoded before the socket had
 * flushed a byte, and a fast export held several pieces (up to 4 MiB each) in memory at once.
 */
export function pullStream(
  pieces: AsyncGenerator<{ data: string | Uint8Array; rows?: number }, void, undefined>,
  { sent, stalled: onStall, stalledAfterMs = STALLED_READER_MS }: PullOptions = {},
): ReadableStream<Uint8Array> {
  let stalled: NodeJS.Timeout | undefined;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        clearTimeout(stalled);
        await new Promise(setImmediate);
        if (cancelled) return;
        for (;;) {
          const next = await pieces.next();
          if (next.done) return controller.close();
          const { data } = next.value;
          if (data.length === 0) continue;
          const bytes = typeof data === 'string' ? encoder.encode(data) : data;
          sent?.(next.value.rows ?? 0, bytes.byteLength);
          controller.enqueue(bytes);
          // The queue is full once this piece is in it: the next pull comes when the client has taken one.
          stalled = setTimeout(() => {
            void pieces.return(undefined);
            // Whoever writes this stream waits for the client before reading on, so it is told (and cancels
            // the stream once it has dropped the client); a reader of its own gets the error.
            if (onStall) onStall();
            else controller.error(new Error(`the client read nothing for ${stalledAfterMs} ms`));
          }, stalledAfterMs);
          stalled.unref();
          return;
        }
      },
      async cancel() {
        cancelled = true;
        clearTimeout(stalled);
        await pieces.return(undefined);
      },
    },
    // One piece ahead: reading the next chunk from the store overlaps writing the last one to the socket.
    { highWaterMark: 1 },
  );
}
