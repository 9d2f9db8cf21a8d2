import { existsSync, statfsSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { databaseFault } from '../store/faults';
import type { ComplianceStore, ImportStore } from '../store/store';

/**
 * Room kept aside for deletions on a full disk: a file of this size beside the database (`<db>-reserve`),
 * made by `serve` when the disk has room for it twice. Deleting an import writes to the WAL before any page is
 * freed, so on a full disk the deletions that would free space fail too; the first one that does releases
 * this file (and empties the WAL: `emptyWal`) and is retried, so an operator (DELETE /v1/imports/{id},
 * `importd imports delete`) and the clean-up of failed imports can free space. Made again once the disk has
 * room (readiness, `full()`).
 */
export const RESERVE_BYTES = 8 * 1024 * 1024;

/** How long a deletion waits for another connection's checkpoint to end before it empties the WAL itself. */
const CHECKPOINTER_WAIT_MS = 1000;

/** A small write that needs new pages (beyond what a deletion frees): what readiness tries after a full disk. */
const PROBE_BYTES = 64 * 1024;

export interface Space {
  /** A write failed for want of room: readiness answers 503 until `full()` finds room again. */
  noteFull(): void;
  /** True while the database has no room for a small write (probed only after noteFull). */
  full(): Promise<boolean>;
  /** The import and compliance stores with their deletions retried once the reserve is released and the WAL emptied. */
  guardDeletions(stores: { imports: ImportStore; compliance: ComplianceStore }): void;
}

export function createSpace(sqlite: Database.Database, file: string | undefined, keepReserve: boolean): Space {
  const reserve = file === undefined ? undefined : `${file}-reserve`;
  let seenFull = false;
  const makeReserve = () => {
    if (!keepReserve || !reserve || existsSync(reserve)) return;
    try {
      const disk = statfsSync(path.dirname(reserve));
      if (disk.bavail * disk.bsize < 2 * RESERVE_BYTES) return;
      // Zeros written out (not a sparse file): the blocks are taken now and given back by the unlink.
      writeFileSync(reserve, Buffer.alloc(RESERVE_BYTES), { mode: 0o600 });
    } catch {
      // No reserve is no failure: deletions then do what the disk lets them.
    }
  };
  const release = () => {
    if (reserve && existsSync(reserve)) unlinkSync(reserve);
  };
  /**
   * Copies the WAL into the database file and truncates the WAL's file to nothing. A write appends its frames
   * to the WAL unless every frame is already copied and no reader still uses them (then it starts the WAL over
   * in the room the file holds): a process with no reserve left (`importd imports delete` once the server
   * released it) whose deletion meets a WAL the server's checkpoint thread has not caught up with, or a reader
   * holds, grows the file into a full disk. A deletion never grows the database file, so after this its frames
   * fit in the room the WAL's file gave back. The database file must first take the WAL's pages past its end:
   * with no room for them (nor a reserve), nothing does but an operator freeing disk space.
   * TRUNCATE waits up to busy_timeout for the writer and for readers (on the serving thread too, as a write
   * waiting for the lock does), then answers busy and leaves the WAL as it is; the retried deletion answers.
   */
  const emptyWal = async () => {
    for (const deadline = Date.now() + CHECKPOINTER_WAIT_MS; ; ) {
      try {
        const [{ busy, log }] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as [{ busy: number; log: number }];
        // Busy before it read the WAL (log -1): another connection (the server's checkpoint thread, for a few
        // milliseconds) holds the checkpointer's lock, which SQLite never waits for.
        if (busy === 0 || log !== -1 || Date.now() >= deadline) return;
      } catch {
        // No room for the database file to grow (or an I/O failure): the WAL is left whole.
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const probe = sqlite.transaction(() => {
    sqlite.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, zeroblob(?))').run('importd.space-probe', PROBE_BYTES);
    sqlite.prepare('DELETE FROM settings WHERE key = ?').run('importd.space-probe');
  });
  makeReserve();

  const retried = <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await write(...args);
      } catch (error) {
        if (databaseFault(error) !== 'full') throw error;
        seenFull = true;
        release();
        await emptyWal();
        return await write(...args);
      }
    };

  return {
    noteFull() {
      seenFull = true;
    },
    async full() {
      if (!seenFull) return false;
      try {
        probe.immediate();
      } catch (error) {
        if (databaseFault(error) === 'full') return true;
        throw error;
      }
      seenFull = false;
      makeReserve();
      return false;
    },
    guardDeletions({ imports, compliance }) {
      imports.claim = retried(imports.claim);
      imports.renewLease = retried(imports.renewLease);
      imports.delete = retried(imports.delete);
      compliance.hideComplete = retried(compliance.hideComplete);
      compliance.hideEndUser = retried(compliance.hideEndUser);
      compliance.hideExpired = retried(compliance.hideExpired);
      compliance.deleteRows = retried(compliance.deleteRows);
    },
  };
}
