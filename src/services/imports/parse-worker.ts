// The parse worker's thread: decodes, parses and checks a large JSON import body off the request thread, so
// a 100 000-row body never holds the event loop; the request thread only stores the checked slices. The
// template's rules run here too (validateRows), beside the writes.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { RowsInvalidError, ServiceError } from '../errors';
import { checkEnvelopeLimits } from '../limits';
import { RowChecker, type CheckedRows } from './check-rows';
import { readImportBytes } from './json-import-body';
import { CANCELLED, CREDITS, type WorkerError, type WorkerMessage, type WorkerRequest, type WorkerRules } from './parse-protocol';
import { rulesToRun, validateRows } from './validate-rows';
import { encodeUtf8Rows } from './utf8-rows';

// On Linux a priority set from a thread applies to that thread alone: when the cores are busy, the request
// thread is scheduled before this one, so reads keep answering while a large body is parsed.
try {
  setPriority(0, 10);
} catch {
  // Platforms that refuse per-thread priorities run the worker at normal priority.
}

const port = parentPort!;
// The one job of this thread's rules, once the request thread has sent them.
let rulesArrived: ((schemaText: string | null) => void) | undefined;
port.on('message', (message: WorkerRequest | WorkerRules) => {
  if ('schemaText' in message) rulesArrived?.(message.schemaText);
  else parseJob(message);
});

function parseJob({ id, body, control, limits, textForm }: WorkerRequest): void {
  const flow = new Int32Array(control);
  const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  const rulesSent = new Promise<string | null>((resolve) => (rulesArrived = resolve));
  // Every failure of the job, the head's included (posting a value copies it), is reported as the job's error.
  (async () => {
    const split = await readImportBytes(body, limits.rowBytes, false);
    checkEnvelopeLimits(split, limits);
    post({ id, type: 'head', meta: split.meta, originalSchema: split.originalSchema, mode: split.mode, dryRun: split.dryRun });
    const checker = new RowChecker(limits.rowBytes);
    function* checkedSlices() {
      for (const slice of split.rows) yield checker.check(slice);
    }
    const checked: CheckedRows = { slices: checkedSlices(), stats: () => checker.stats() };
    const schemaText = await rulesSent;
    const rules = schemaText === null ? undefined : rulesToRun(schemaText);
    if (rules) split.countKeysOnly?.();
    const validated = rules && validateRows(rules, checked);
    const rows = validated ?? checked;
    for await (const texts of rows.slices) {
      if (!takeCredit(flow)) return;
      if (textForm === 'strings' || !Array.isArray(texts)) post({ id, type: 'rows', rows: texts });
      else {
        // Moved, not copied: the request thread receives the bytes without deserialising a string.
        const utf8 = encodeUtf8Rows(texts as string[]);
        post({ id, type: 'rows', rows: utf8 }, [utf8.utf8.buffer as ArrayBuffer, utf8.ends.buffer as ArrayBuffer]);
      }
    }
    post({ id, type: 'end', stats: rows.stats(), ...(validated && { validated: { counts: validated.counts(), errorSummary: validated.errorSummary() } }) });
  })().catch((error: unknown) => post({ id, type: 'error', error: describe(error) }));
}

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
  if (error instanceof RowsInvalidError) return { code: error.code, message: error.message, rowErrors: { errors: error.errors, errorCount: error.errorCount } };
  if (error instanceof ServiceError) return { code: error.code, message: error.message, details: error.details };
  return { code: 'internal_error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
