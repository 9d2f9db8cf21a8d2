import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { copyDatabase, finishCopy } from '../../db/backup';
import type { ServiceContext } from '../context';
import { conflict, ServiceError, validationFailed } from '../errors';
import { parseInput } from '../validate';
import { CreateBackupInput, type BackupOutput } from './schemas';

/**
 * Writes a consistent copy of the live database to `file` with SQLite's online backup API: all pages are
 * copied in one step inside one read transaction, so the copy is a single point in time even while a
 * server writes (WAL lets writers go on meanwhile). The copy is written beside the target and renamed
 * over it only once complete and verified (`PRAGMA quick_check`), so `file` is never a partial copy; it is
 * one self-contained file (rollback journal), ready to be opened or restored.
 * Throws validation_failed (no such folder, or the database itself), conflict (file exists, no `force`).
 */
export async function createBackup(ctx: ServiceContext, input: CreateBackupInput): Promise<BackupOutput> {
  const { file, force } = parseInput(CreateBackupInput, input);
  const target = path.resolve(file);
  if (target === path.resolve(ctx.config.dbPath)) throw invalidFile('is the database itself');
  if (!existsSync(path.dirname(target))) throw invalidFile('is in a folder that does not exist');
  if (existsSync(target) && !force) throw conflict(`${file} already exists; pass --force to replace it`);
  const partial = `${target}.partial-${process.pid}`;
  const started = performance.now();
  try {
    const pages = await copyDatabase(ctx.sqlite, partial);
    const check = finishCopy(ctx.sqlite, partial);
    if (check !== 'ok') throw new Error(`the backup copy failed quick_check: ${check}`);
    renameSync(partial, target);
    return { file: target, pages, bytes: statSync(target).size, durationMs: Math.round(performance.now() - started) };
  } finally {
    for (const leftover of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(leftover, { force: true });
  }
}

function invalidFile(why: string): ServiceError {
  return validationFailed([{ path: 'file', message: `the backup file ${why}` }]);
}

