// The checkpoint thread of a serving process: copies the WAL's pages into the database file on a connection
// of its own, so the fsyncs of a checkpoint (tens of milliseconds each on a busy disk) never hold the event
// loop of the thread that serves requests and writes imports.
import { constants } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { CheckpointWorkerData } from './checkpoints';

const { file, intervalMs, addonFile } = workerData as CheckpointWorkerData;

/** Inside the executable `require()` cannot load the addon: it is loaded from the file the main thread extracted. */
function loadAddon(path: string): object {
  const module = { exports: {} };
  process.dlopen(module, path, constants.dlopen.RTLD_NOW);
  return module.exports;
}

// The typings only know the path form of nativeBinding; better-sqlite3 also accepts the loaded module.
const sqlite = new Database(file, { fileMustExist: true, nativeBinding: (addonFile ? loadAddon(addonFile) : undefined) as string | undefined });
sqlite.pragma('wal_autocheckpoint = 0');

// PASSIVE: copies what no reader still needs, never waits for or blocks the writer; when nothing was written
// since the last one it does no I/O at all.
const timer = setInterval(() => {
  try {
    sqlite.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A transient failure (a busy recovery of another process) is retried at the next tick.
  }
}, intervalMs);

parentPort!.once('message', () => {
  clearInterval(timer);
  sqlite.close();
  parentPort!.close();
});
