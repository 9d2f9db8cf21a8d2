import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The database's change stamp: bytes that differ after every commit, by this connection or any other process.
 * It is the wal-index header at the start of the `-shm` file (https://sqlite.org/walformat.html): SQLite writes
 * it on every commit (its change counter, last frame and WAL salts; a WAL that starts over gets new salts), in
 * two copies, the second first, and a reader that finds them unequal must try again. One `pread` of 96 bytes
 * (about 1 µs) against a statement's read transaction (two fcntl locks, 9-13 µs of server CPU per request).
 */
export type ChangeStamp = () => Uint8Array | undefined;

const COPY = 48;
/** The header's `isInit` byte: 0 until a connection has built the wal-index. */
const IS_INIT = 12;

// POSIX locks belong to the process and the file: closing any descriptor of the -shm file releases every lock
// SQLite holds on it through its own, among them the one telling other processes the wal-index is in use. So
// the descriptor is shared by the connections this process opens on a file and closed after the last of them.
const opened = new Map<string, { fd: number; users: number }>();

/**
 * Starts reading the stamp of the WAL-mode database `file` (opened by the caller's connection, so its -shm
 * file exists); undefined when it cannot be read. `release` is called once that connection has closed.
 */
export function openChangeStamp(file: string): { stamp: ChangeStamp; release(): void } | undefined {
  const shm = `${file}-shm`;
  const entry = opened.get(shm) ?? openShm(shm);
  if (!entry) return undefined;
  entry.users++;
  const { fd } = entry;
  const header = Buffer.alloc(2 * COPY);
  let released = false;
  return {
    stamp() {
      if (readSync(fd, header, 0, header.length, 0) !== header.length || header[IS_INIT] !== 1) return undefined;
      // Unequal copies: a commit is writing the header. No stamp this time, as SQLite would retry.
      return header.compare(header, COPY, 2 * COPY, 0, COPY) === 0 ? header.subarray(0, COPY) : undefined;
    },
    release() {
      if (released) return;
      released = true;
      if (--entry.users > 0) return;
      opened.delete(shm);
      closeSync(fd);
    },
  };
}

function openShm(shm: string): { fd: number; users: number } | undefined {
  let fd: number;
  try {
    fd = openSync(shm, 'r');
  } catch {
    return undefined;
  }
  const entry = { fd, users: 0 };
  opened.set(shm, entry);
  return entry;
}
