import { once } from 'node:events';
import { createWriteStream, openSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { PRIVATE_FILE_MODE } from '../core/file-modes';
import { claimPartialFile } from '../services/files';
import type { CliIo } from './io';

/** Where a long output goes, with backpressure: a file (written aside, renamed into place on success) or stdout. */
export interface OutputSink {
  /** False once the reader went away (stdout piped into `head`): the producer should stop. */
  readonly open: boolean;
  write(data: string | Uint8Array): Promise<void>;
  /** Completes the output (the file appears under its name only now). */
  close(): Promise<void>;
  /** Drops a partial file after a failure. */
  discard(): Promise<void>;
}

/**
 * Writes `FILE.partial` (created with O_EXCL, so never through a symbolic link planted there; owner-only),
 * renamed to `file` once complete. `file` has been checked by checkOutputFile.
 */
export function fileSink(file: string, force: boolean): OutputSink {
  const partial = `${file}.partial`;
  claimPartialFile(partial, force);
  const stream = createWriteStream(partial, { fd: openSync(partial, 'wx', PRIVATE_FILE_MODE) });
  const finished = () => new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return {
    open: true,
    write: (data) => writeWithBackpressure(stream, data),
    async close() {
      await finished();
      await rename(partial, file);
    },
    async discard() {
      await finished().catch(() => undefined);
      await rm(partial, { force: true });
    },
  };
}

export function stdoutSink(io: CliIo): OutputSink {
  const stream = io.outStream;
  let gone = false;
  // A reader that stops early (`importd export ID | head`) closes the pipe: that ends the output quietly.
  // The listener stays attached: the error can arrive after the last write.
  const isClosedPipe = (error: unknown) => (error as NodeJS.ErrnoException).code === 'EPIPE';
  stream?.on('error', (error) => {
    if (isClosedPipe(error)) gone = true;
  });
  return {
    get open() {
      return !gone;
    },
    async write(data) {
      if (gone) return;
      if (!stream) return io.out(typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString());
      try {
        await writeWithBackpressure(stream, data);
      } catch (error) {
        if (!isClosedPipe(error)) throw error;
        gone = true;
      }
    },
    close: async () => undefined,
    discard: async () => undefined,
  };
}

async function writeWithBackpressure(stream: NodeJS.WritableStream, data: string | Uint8Array): Promise<void> {
  if (data.length !== 0 && !stream.write(data)) await once(stream, 'drain');
}
