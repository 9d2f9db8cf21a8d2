import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { WorkerScript } from '../../core/worker-script';

/** What the checkpoint thread is started with. */
export interface CheckpointWorkerData {
  file: string;
  intervalMs: number;
  walLimitPages: number;
  /** Int32Array over it: [RESTARTING]. */
  control: SharedArrayBuffer;
  /** The addon's file when it cannot be required (inside the executable). */
  addonFile?: string;
}

/**
 * WAL pages a commit on the serving connection checkpoints past, when no checkpoint thread runs (every other
 * process, or after that thread failed): 100 pages (400 KiB) keep each checkpoint to a few milliseconds during
 * a large import, where SQLite's default of 1000 held the thread for about 30 ms every 4 MiB written.
 */
export const IN_COMMIT_CHECKPOINTS = 'wal_autocheckpoint = 100';

/** How often the checkpoint thread copies the WAL into the database file. */
export const CHECKPOINT_INTERVAL_MS = 100;

/**
 * WAL pages past which the thread makes the WAL start over. SQLite does so only when a write begins with
 * every page already copied, which a thread copying beside a long stream of commits never sees (a 1M-row
 * import grew the WAL to 490 MB), and a checkpoint that waits for the writer loses every race to a writer
 * that commits slice after slice. So past this size the thread raises a flag that long writers wait on
 * (asynchronously: the event loop keeps serving) before their next commit, copies the last pages with
 * RESTART, and lowers it; `journal_size_limit` truncates the file back to this size.
 */
export const WAL_LIMIT_PAGES = 16_384;
/** The same limit in bytes for `journal_size_limit` (pragmas are literals: no value is spliced into SQL text). */
export const WAL_SIZE_LIMIT = 'journal_size_limit = 67108864';

/** Index of the flag in the shared control array: 1 while the thread restarts the WAL. */
export const RESTARTING = 0;

export interface Checkpointer {
  /** Resolves at once, or once the thread has restarted the WAL (at most a second): awaited before each slice of a long write. */
  pause(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Moves the checkpoints of `sqlite` (the serving process's connection to `file`) to a thread of their own:
 * the connection stops checkpointing in its commits, the thread checkpoints every CHECKPOINT_INTERVAL_MS.
 * Should the thread fail, the connection checkpoints in its commits again. Durability is unchanged: a commit
 * is in the WAL either way (synchronous = NORMAL), and a checkpoint fsyncs wherever it runs.
 */
export function startCheckpointer(
  sqlite: Database.Database,
  file: string,
  script: WorkerScript,
  addonFile?: string,
  walLimitPages = WAL_LIMIT_PAGES,
): Checkpointer {
  const control = new Int32Array(new SharedArrayBuffer(4));
  const workerData: CheckpointWorkerData = {
    file,
    intervalMs: CHECKPOINT_INTERVAL_MS,
    walLimitPages,
    control: control.buffer as SharedArrayBuffer,
    ...(addonFile && { addonFile }),
  };
  const worker = 'file' in script ? new Worker(script.file, { workerData }) : new Worker(script.source, { workerData, eval: true });
  worker.unref();
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const fallBack = () => {
    // A thread that died restarting the WAL must not leave writers waiting on its flag.
    Atomics.store(control, RESTARTING, 0);
    if (!stopping && sqlite.open) sqlite.pragma(IN_COMMIT_CHECKPOINTS);
  };
  worker.on('error', fallBack);
  worker.once('exit', fallBack);
  sqlite.pragma('wal_autocheckpoint = 0');
  sqlite.pragma(WAL_SIZE_LIMIT);
  return {
    async pause() {
      // Polled on a timer, which (unlike Atomics.waitAsync) keeps the process alive meanwhile.
      for (const deadline = Date.now() + 1000; Atomics.load(control, RESTARTING) === 1 && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    },
    async stop() {
      stopping = true;
      // Kept from holding the process open while it runs, but waited for here: it closes its connection first.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
