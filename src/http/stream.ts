const encoder = new TextEncoder();

/**
 * A byte stream over a generator of text pieces, pulled as the client reads (so a slow
 * client holds back the producer instead of the server buffering the whole file).
 */
export function pullStream(
  pieces: AsyncGenerator<{ text: string; rows?: number }, void, undefined>,
  sent?: (rows: number, bytes: number) => void,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          const next = await pieces.next();
          if (next.done) return controller.close();
          if (next.value.text === '') continue;
          const bytes = encoder.encode(next.value.text);
          sent?.(next.value.rows ?? 0, bytes.byteLength);
          return controller.enqueue(bytes);
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
