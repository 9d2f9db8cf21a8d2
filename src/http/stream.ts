const encoder = new TextEncoder();

/**
 * A byte stream over a generator of text pieces, pulled as the client reads (so a slow
 * client holds back the producer instead of the server buffering the whole file).
 */
export function pullStream(pieces: Generator<{ text: string }, void, undefined>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        for (;;) {
          const next = pieces.next();
          if (next.done) return controller.close();
          if (next.value.text !== '') return controller.enqueue(encoder.encode(next.value.text));
        }
      },
      cancel() {
        pieces.return(undefined);
      },
    },
    // Two pieces ahead: reading the next chunk from SQLite overlaps writing the last one to the socket.
    { highWaterMark: 2 },
  );
}
