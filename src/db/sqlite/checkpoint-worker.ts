// The checkpoint thread of a serving process: copies the WAL's pages into the database file on a connection
// of its own, so the fsyncs of a checkpoint (tens of milliseconds each on a busy disk) never hold the event
// loop of the thread that serves requests and writes imports.
import { constants } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { RESTARTING, WAL_SIZE_LIMIT, type CheckpointWorkerData } from './checkpoints';

const { file, intervalMs, walLimitPages, control, addonFile } = workerData as CheckpointWorkerData;
const flags = new Int32Array(control);

/** Inside the executable `require()` cannot load the addon: it is loaded from the file the main thread extracted. */
function loadAddon(path: string): object {
  const module = { exports: {} };
  process.dlopen(module, path, constants.dlopen.RTLD_NOW);
  return module.exports;
}

// The typings only know the path form of nativeBinding; better-sqlite3 also accepts the loaded module.
const sqlite = new Database(file, { fileMustExist: true, nativeBinding: (addonFile ? loadAddon(addonFile) : undefined) as string | undefined });
sqlite.pragma('wal_autocheckpoint = 0');
sqlite.pragma(WAL_SIZE_LIMIT);
// RESTART waits for the writer's transaction in progress to end (and for readers of old pages) this long at most.
sqlite.pragma('busy_timeout = 1000');

/** RESTART while long writers hold back (Checkpointer.pause): the next write starts the WAL over. */
function restart(): void {
  Atomics.store(flags, RESTARTING, 1);
  try {
    sqlite.pragma('wal_checkpoint(RESTART)');
  } finally {
    Atomics.store(flags, RESTARTING, 0);
  }
}

// PASSIVE: copies what no reader still needs, never waits for or blocks the writer; when nothing was written
// since the last one it does no I/O at all. Past the limit, RESTART makes the next write start the WAL over.
const timer = setInterval(() => {
  try {
    const [{ log }] = sqlite.pragma('wal_checkpoint(PASSIVE)') as [{ log: number }];
    if (log >= walLimitPages) restart();
  } catch {
    // A transient failure (a busy recovery of another process) is retried at the next tick.
  }
}, intervalMs);

parentPort!.once('message', () => {
  clearInterval(timer);
  sqlite.close();
  parentPort!.close();
});
