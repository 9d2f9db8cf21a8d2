import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ServiceError } from '../errors';
import type { CheckedRows } from './import-writer';
import { CANCELLED, CREDITS, SLICES_IN_FLIGHT, type WorkerMessage, type WorkerRequest } from './parse-protocol';
import type { CellStats } from './schemas';

/** Bodies from this size on are parsed by the worker; smaller ones cost less than handing them over. */
export const PARSE_IN_WORKER_BYTES = 512 * 1024;

/** Where the worker's code comes from: a file next to this module, or source text (inside the executable). */
export type WorkerScript = { file: string } | { source: string };

/**
 * The bundled worker, build/parse-worker.cjs (scripts/build.mjs; `npm test` builds first): beside the bundle
 * that runs this module, or found from the source tree when run from source, since a worker thread does not
 * inherit the TypeScript loader of its parent.
 */
export function siblingWorkerScript(): WorkerScript {
  // __filename, not __dirname: tsx's loader defines the first reliably, not the second.
  const folder = path.dirname(__filename);
  return { file: __filename.endsWith('.ts') ? path.resolve(folder, '..', '..', '..', 'build', 'parse-worker.cjs') : path.join(folder, 'parse-worker.cjs') };
}

export interface ParsedImportBody {
  meta: unknown;
  originalSchema: unknown;
  rows: CheckedRows;
}

interface Job {
  messages: WorkerMessage[];
  flow: Int32Array;
  wake?: () => void;
}

/**
 * One worker thread that parses and checks large JSON import bodies, one at a time in arrival order, while
 * the request thread keeps serving; its checked slices are stored by the request thread as they arrive.
 * Started on first use; it does not keep the process alive.
 */
export class ParsePool {
  private worker: Worker | undefined;
  private readonly jobs = new Map<number, Job>();
  private nextId = 1;

  constructor(private readonly script: WorkerScript) {}

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
    const buffer = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body.buffer : body.slice().buffer;
    this.start().postMessage({ id, body: buffer as ArrayBuffer, control } satisfies WorkerRequest, [buffer as ArrayBuffer]);
    const messages = this.receive(id, job);
    const head = await messages.next();
    if (head.done || head.value.type !== 'head') throw new Error('parse worker: no head');
    let stats: CellStats | undefined;
    async function* slices() {
      for await (const message of { [Symbol.asyncIterator]: () => messages }) {
        if (message.type === 'rows') yield message.texts;
        else if (message.type === 'end') stats = message.stats;
      }
    }
    return {
      meta: head.value.meta,
      originalSchema: head.value.originalSchema,
      rows: {
        slices: slices(),
        stats: () => {
          if (!stats) throw new Error('parse worker: statistics asked for before the last slice');
          return stats;
        },
        discard: async () => {
          await messages.return(undefined);
        },
      },
    };
  }

  /** Stops the worker (pending parses fail). */
  async close(): Promise<void> {
    await this.worker?.terminate();
  }

  private async *receive(id: number, job: Job): AsyncGenerator<WorkerMessage> {
    try {
      for (;;) {
        while (job.messages.length === 0) await new Promise<void>((resolve) => (job.wake = resolve));
        const message = job.messages.shift()!;
        if (message.type === 'error') {
          const { code, message: text, details } = message.error;
          // A failure of the worker itself is internal: logged under the request id, never shown to the client.
          throw code === 'internal_error' ? new Error(`parse worker: ${text}`) : new ServiceError(code, text, details);
        }
        if (message.type === 'rows') {
          Atomics.add(job.flow, CREDITS, 1);
          Atomics.notify(job.flow, CREDITS);
        }
        yield message;
        if (message.type === 'end') return;
      }
    } finally {
      // Finished, failed or discarded: a worker still producing this job's slices stops.
      Atomics.store(job.flow, CANCELLED, 1);
      Atomics.notify(job.flow, CREDITS);
      this.jobs.delete(id);
    }
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker =
      'file' in this.script
        ? new Worker(this.script.file)
        : new Worker(this.script.source, { eval: true });
    worker.unref();
    worker.on('message', (message: WorkerMessage) => this.deliver(message));
    const fail = (error: unknown) => {
      this.worker = undefined;
      for (const [id] of this.jobs) {
        this.deliver({ id, type: 'error', error: { code: 'internal_error', message: `parse worker stopped: ${String(error)}` } });
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(`exit ${code}`));
    this.worker = worker;
    return worker;
  }

  private deliver(message: WorkerMessage): void {
    const job = this.jobs.get(message.id);
    if (!job) return;
    job.messages.push(message);
    job.wake?.();
    job.wake = undefined;
  }
}
