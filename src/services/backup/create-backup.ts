import { closeSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { PRIVATE_FILE_MODE } from '../../core/file-modes';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { checkOutputFile } from '../files';
import { parseInput } from '../validate';
import { CreateBackupInput, type BackupOutput } from './schemas';

/**
 * Writes a consistent copy of the live database to `file` with SQLite's online backup API: all pages are
 * copied in one step inside one read transaction, so the copy is a single point in time even while a
 * server writes (WAL lets writers go on meanwhile). The copy is written beside the target and renamed
 * over it only once complete and verified (`PRAGMA quick_check`), so `file` is never a partial copy; it is
 * one self-contained file (rollback journal), ready to be opened or restored, readable by its owner only.
 * Uploaded and kept files are not in it: the answer names their folder (`filesDir`), to copy beside it.
 * Throws validation_failed (no such folder, a folder, the database or its -wal/-shm; a PostgreSQL database,
 * which pg_dump backs up), conflict (file exists, no `force`).
 */
export async function createBackup(ctx: ServiceContext, input: CreateBackupInput): Promise<BackupOutput> {
  const { file, force } = parseInput(CreateBackupInput, input);
  const backup = ctx.store.admin.backup;
  if (!backup) {
    const message = `importd backup copies a SQLite database file; this database is PostgreSQL: back it up with pg_dump (pg_dump --format=custom --file=importd.dump "$IMPORTD_DB"), and the uploaded files in ${ctx.config.uploads.filesDir} beside it`;
    throw new ServiceError('validation_failed', message);
  }
  const target = checkOutputFile(ctx, { file, force, field: 'file' });
  const partial = `${target}.partial-${process.pid}`;
  const started = performance.now();
  try {
    // SQLite writes into the file it finds, keeping its mode; O_EXCL refuses anything already there.
    closeSync(openSync(partial, 'wx', PRIVATE_FILE_MODE));
    const { pages, check } = await backup(partial);
    if (check !== 'ok') throw new Error(`the backup copy failed quick_check: ${check}`);
    renameSync(partial, target);
    return { file: target, pages, bytes: statSync(target).size, durationMs: Math.round(performance.now() - started), filesDir: ctx.config.uploads.filesDir };
  } finally {
    for (const leftover of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(leftover, { force: true });
  }
}
