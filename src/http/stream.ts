const encoder = new TextEncoder();

/**
 * A byte stream over a generator of text pieces, pulled as the client reads (so a slow
 * client holds back the producer instead of the server buffering the whole file).
 */
export function pullStream(
  pieces: Generator<{ text: string; rows?: number }, void, undefined>,
  sent?: (rows: number, bytes: number) => void,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        for (;;) {
          const next = pieces.next();
          if (next.done) return controller.close();
          if (next.value.text === '') continue;
          const bytes = encoder.encode(next.value.text);
          sent?.(next.value.rows ?? 0, bytes.byteLength);
          return controller.enqueue(bytes);
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
