import { ServiceError } from '../errors';

// IMPORTD_MAX_IMPORT_BYTES bounds one import in every format and from every credential: an HTTP body
// (http/body.ts) and an operator's `importd import FILE` alike.

export const importTooLarge = (maxBytes: number) =>
  new ServiceError('payload_too_large', `the import exceeds ${maxBytes} bytes (IMPORTD_MAX_IMPORT_BYTES)`);

/** Refuses an import whose size is known up front, before any of it is read. Throws payload_too_large. */
export function checkImportBytes(sizeBytes: number, maxBytes: number): void {
  if (sizeBytes > maxBytes) throw importTooLarge(maxBytes);
}

/**
 * The chunks, failing with payload_too_large once more than `maxBytes` have come (the import then aborts and
 * what was written is removed): a stream, or a file that grows while it is read, is bounded as it arrives.
 * `onCount` sees the running total (the ingestion metric).
 */
export async function* countedChunks(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  onCount?: (seen: number) => void,
): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const chunk of chunks) {
    seen += chunk.byteLength;
    onCount?.(seen);
    checkImportBytes(seen, maxBytes);
    yield chunk;
  }
}
