import type { ImportOptions } from './import-options';
import { Worker } from 'node:worker_threads';
import type { Limits } from '../../config/config';
import type { RowTextForm } from '../../db/store';
import { siblingWorkerScript, type WorkerScript } from '../../core/worker-script';
import { RowsInvalidError, ServiceError } from '../errors';
import type { CheckedRows } from './check-rows';
import { CANCELLED, CREDITS, SLICES_IN_FLIGHT, type WorkerMessage, type WorkerRequest, type WorkerRules } from './parse-protocol';

/** Threads parsing at once, at most: more bodies wait their turn (their bytes are already in memory). */
export const MAX_PARSE_THREADS = 4;

/**
 * Bodies from this size on are parsed by the worker; smaller ones are parsed on the request thread, slice by
 * slice between the writes, which costs less: a thread start and the copy of every checked slice back cost
 * the server ~60 ms of CPU per import, more than 10 000 rows (2 MB) take to parse, and 30 000 rows (6 MB)
 * were still stored faster without the worker on the loaded 2-core machine. A large body
 * gains from parsing beside the writes.
 */
export const PARSE_IN_WORKER_BYTES = 4 * 1024 * 1024;

/** The bundled parse worker, build/parse-worker.cjs. */
export const parseWorkerScript = (): WorkerScript => siblingWorkerScript('parse-worker.cjs');

export interface ParsedImportBody extends ImportOptions {
  meta: unknown;
  originalSchema: unknown;
  rows: CheckedRows;
}

interface Job {
  messages: WorkerMessage[];
  flow: Int32Array;
  wake?: () => void;
  done?: boolean;
}

/**
 * Parses and checks large JSON import bodies on worker threads while the request thread keeps serving; the
 * checked slices are stored by the request thread as they arrive. Each body gets a thread of its own (once a
 * body is done a spare one is started, so the next body waits for no thread start), with a bounded heap: whatever one body
 * does to its thread (an absurd nesting, a heap exhausted), only that import fails, never another tenant's
 * import being parsed beside it, and never the process. Threads do not keep the process alive.
 */
export class ParsePool {
  private spare: Worker | undefined;
  private closed = false;
  private readonly stopped = new WeakSet<Worker>();
  private readonly running = new Set<Worker>();
  private readonly jobs = new Map<number, Job>();
  private readonly waiting: (() => void)[] = [];
  private nextId = 1;

  constructor(
    private readonly script: WorkerScript,
    private readonly limits: Limits,
    /** Each thread's heap limit (MiB): a body of the largest allowed size must fit, parsed. */
    private readonly heapMb = 512,
    /** The store's RowStore.textForm: the rows come back in it. */
    private readonly textForm: RowTextForm = 'strings',
  ) {}

  /** Bodies handed over and not yet finished, the one being parsed included (the queue an operator watches). */
  get pending(): number {
    return this.jobs.size;
  }

  /** Hands the body over (its buffer is transferred) and resolves once meta and originalSchema are parsed. */
  async parse(body: Uint8Array): Promise<ParsedImportBody> {
    const id = this.nextId++;
    const control = new SharedArrayBuffer(8);
    const job: Job = { messages: [], flow: new Int32Array(control) };
    job.flow[CREDITS] = SLICES_IN_FLIGHT;
    this.jobs.set(id, job);
    while (this.running.size >= MAX_PARSE_THREADS) await new Promise<void>((resolve) => this.waiting.push(resolve));
    const worker = this.take(job);
    const buffer = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body.buffer : body.slice().buffer;
    worker.postMessage({ id, body: buffer as ArrayBuffer, control, limits: this.limits, textForm: this.textForm } satisfies WorkerRequest, [buffer as ArrayBuffer]);
    const messages = this.receive(id, job, worker);
    const head = await messages.next();
    if (head.done || head.value.type !== 'head') throw new Error('parse worker: no head');
    let end: Extract<WorkerMessage, { type: 'end' }> | undefined;
    let rulesSent = false;
    const sendRules = (schemaText: string | undefined) => {
      if (rulesSent) return;
      rulesSent = true;
      worker.postMessage({ id, schemaText: schemaText ?? null } satisfies WorkerRules);
    };
    async function* slices() {
      // Not told of any rules before the first slice: the rows are free-form.
      sendRules(undefined);
      for await (const message of { [Symbol.asyncIterator]: () => messages }) {
        if (message.type === 'rows') yield message.rows;
        else if (message.type === 'end') end = message;
      }
    }
    const ended = () => {
      if (!end) throw new Error('parse worker: statistics asked for before the last slice');
      return end;
    };
    const rows: CheckedRows = {
      slices: slices(),
      stats: () => ended().stats,
      discard: async () => {
        await messages.return(undefined);
      },
      validateInProducer: (schemaText) => {
        sendRules(schemaText);
        if (schemaText === undefined) return undefined;
        const validated = () => {
          const { validated } = ended();
          if (!validated) throw new Error('parse worker: rules sent, but no counts came back');
          return validated;
        };
        return { ...rows, counts: () => validated().counts, errorSummary: () => validated().errorSummary };
      },
    };
    return { meta: head.value.meta, originalSchema: head.value.originalSchema, mode: head.value.mode, dryRun: head.value.dryRun, rows };
  }

  /** Stops every thread (pending parses fail). */
  async close(): Promise<void> {
    this.closed = true;
    const workers = [...this.running, ...(this.spare ? [this.spare] : [])];
    this.spare = undefined;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private async *receive(id: number, job: Job, worker: Worker): AsyncGenerator<WorkerMessage> {
    try {
      for (;;) {
        while (job.messages.length === 0) await new Promise<void>((resolve) => (job.wake = resolve));
        const message = job.messages.shift()!;
        if (message.type === 'error') {
          const { code, message: text, details, rowErrors } = message.error;
          // A failure of the worker itself is internal: logged under the request id, never shown to the client.
          if (code === 'internal_error') throw new Error(`parse worker: ${text}`);
          throw rowErrors ? new RowsInvalidError(rowErrors.errors, rowErrors.errorCount) : new ServiceError(code, text, details);
        }
        if (message.type === 'rows') {
          Atomics.add(job.flow, CREDITS, 1);
          Atomics.notify(job.flow, CREDITS);
        }
        yield message;
        if (message.type === 'end') return;
      }
    } finally {
      // Finished, failed or discarded: the thread stops, whatever it was doing.
      job.done = true;
      Atomics.store(job.flow, CANCELLED, 1);
      Atomics.notify(job.flow, CREDITS);
      this.jobs.delete(id);
      this.running.delete(worker);
      void worker.terminate();
      // The next body's thread starts now, not while this one was parsed: a thread start costs 20-40 ms of
      // CPU, which would have competed with the parse on a machine of few cores.
      if (!this.spare && !this.closed) this.spare = this.spawn();
      this.waiting.shift()?.();
    }
  }

  /** The spare thread (or a new one) for this job; a new spare is started once a job ends. */
  private take(job: Job): Worker {
    const spare = this.spare && !this.stopped.has(this.spare) ? this.spare : undefined;
    const worker = spare ?? this.spawn();
    this.spare = undefined;
    this.running.add(worker);
    const deliver = (message: WorkerMessage) => {
      if (job.done) return;
      job.messages.push(message);
      job.wake?.();
      job.wake = undefined;
    };
    const fail = (reason: unknown) => deliver({ id: 0, type: 'error', error: { code: 'internal_error', message: `parse worker stopped: ${String(reason)}` } });
    worker.on('message', deliver);
    worker.on('error', fail);
    worker.on('exit', (code) => fail(`exit ${code}`));
    return worker;
  }

  private spawn(): Worker {
    // A young generation larger than V8's default: a body's per-row objects and strings die young, and fewer
    // scavenges of them cost the thread less (PostgreSQL: 657-662 vs 675-780 ms of CPU per import).
    const options = { resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: 64 } };
    const worker = 'file' in this.script ? new Worker(this.script.file, options) : new Worker(this.script.source, { ...options, eval: true });
    worker.unref();
    // A spare that stops before it is used is replaced when taken.
    worker.on('error', () => undefined);
    worker.on('exit', () => this.stopped.add(worker));
    return worker;
  }
}
