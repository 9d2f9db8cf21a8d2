// The parse worker's thread: decodes, parses and checks a large JSON import body off the request thread, so
// a 100 000-row body never holds the event loop; the request thread only stores the checked slices.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { ServiceError } from '../errors';
import { checkEnvelopeLimits } from '../limits';
import { RowChecker } from './check-rows';
import { readImportBytes } from './json-import-body';
import { CANCELLED, CREDITS, type WorkerError, type WorkerMessage, type WorkerRequest } from './parse-protocol';
import { encodeUtf8Rows } from './utf8-rows';

// On Linux a priority set from a thread applies to that thread alone: when the cores are busy, the request
// thread is scheduled before this one, so reads keep answering while a large body is parsed.
try {
  setPriority(0, 10);
} catch {
  // Platforms that refuse per-thread priorities run the worker at normal priority.
}

const port = parentPort!;
port.on('message', ({ id, body, control, limits, textForm }: WorkerRequest) => {
  const flow = new Int32Array(control);
  const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  // Every failure of the job, the head's included (posting a value copies it), is reported as the job's error.
  (async () => {
    const split = await readImportBytes(body, limits.rowBytes, false);
    checkEnvelopeLimits(split, limits);
    post({ id, type: 'head', meta: split.meta, originalSchema: split.originalSchema, mode: split.mode, dryRun: split.dryRun });
    const checker = new RowChecker(limits.rowBytes);
    for (const slice of split.rows) {
      const texts = checker.check(slice);
      if (!takeCredit(flow)) return;
      if (textForm === 'strings') post({ id, type: 'rows', rows: texts });
      else {
        // Moved, not copied: the request thread receives the bytes without deserialising a string.
        const rows = encodeUtf8Rows(texts);
        post({ id, type: 'rows', rows }, [rows.utf8.buffer as ArrayBuffer, rows.ends.buffer as ArrayBuffer]);
      }
    }
    post({ id, type: 'end', stats: checker.stats() });
  })().catch((error: unknown) => post({ id, type: 'error', error: describe(error) }));
});

/** Waits (this thread only) until the request thread has room for another slice; false once cancelled. */
function takeCredit(flow: Int32Array): boolean {
  for (;;) {
    if (Atomics.load(flow, CANCELLED) === 1) return false;
    const credits = Atomics.load(flow, CREDITS);
    if (credits > 0) {
      if (Atomics.compareExchange(flow, CREDITS, credits, credits - 1) === credits) return true;
    } else Atomics.wait(flow, CREDITS, credits, 1000);
  }
}

function describe(error: unknown): WorkerError {
  if (error instanceof ServiceError) return { code: error.code, message: error.message, details: error.details };
  return { code: 'internal_error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
