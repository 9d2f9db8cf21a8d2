import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { WorkerScript } from '../../core/worker-script';

/** What the checkpoint thread is started with. */
export interface CheckpointWorkerData {
  file: string;
  intervalMs: number;
  /** The addon's file when it cannot be required (inside the executable). */
  addonFile?: string;
}

/**
 * WAL pages a commit on the serving connection checkpoints past, when no checkpoint thread runs (every other
 * process, or after that thread failed): 100 pages (400 KiB) keep each checkpoint to a few milliseconds during
 * a large import, where SQLite's default of 1000 held the thread for about 30 ms every 4 MiB written.
 */
export const IN_COMMIT_CHECKPOINT_PAGES = 100;

/** How often the checkpoint thread copies the WAL into the database file. */
export const CHECKPOINT_INTERVAL_MS = 100;

export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * Moves the checkpoints of `sqlite` (the serving process's connection to `file`) to a thread of their own:
 * the connection stops checkpointing in its commits, the thread checkpoints every CHECKPOINT_INTERVAL_MS.
 * Should the thread fail, the connection checkpoints in its commits again. Durability is unchanged: a commit
 * is in the WAL either way (synchronous = NORMAL), and a checkpoint fsyncs wherever it runs.
 */
export function startCheckpointer(sqlite: Database.Database, file: string, script: WorkerScript, addonFile?: string): Checkpointer {
  const workerData: CheckpointWorkerData = { file, intervalMs: CHECKPOINT_INTERVAL_MS, ...(addonFile && { addonFile }) };
  const worker = 'file' in script ? new Worker(script.file, { workerData }) : new Worker(script.source, { workerData, eval: true });
  worker.unref();
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const fallBack = () => {
    if (!stopping && sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${IN_COMMIT_CHECKPOINT_PAGES}`);
  };
  worker.on('error', fallBack);
  worker.once('exit', fallBack);
  sqlite.pragma('wal_autocheckpoint = 0');
  return {
    async stop() {
      stopping = true;
      // Kept from holding the process open while it runs, but waited for here: it closes its connection first.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
