const encoder = new TextEncoder();

/**
 * A byte stream over a generator of text pieces, pulled as the client reads (so a slow
 * client holds back the producer instead of the server buffering the whole file).
 */
export function pullStream(pieces: AsyncGenerator<{ text: string }, void, undefined>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          const next = await pieces.next();
          if (next.done) return controller.close();
          if (next.value.text !== '') return controller.enqueue(encoder.encode(next.value.text));
        }
      },
      async cancel() {
        await pieces.return(undefined);
      },
    },
    // Two pieces ahead: reading the next chunk from the store overlaps writing the last one to the socket.
    { highWaterMark: 2 },
  );
}
