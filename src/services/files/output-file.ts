import { realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { lstatIfExists, statIfExists } from '../../lib/stat-if-exists';
import { isPostgresUrl } from '../../core/database-url';
import type { ServiceContext } from '../context';
import { conflict, validationFailed } from '../errors';

export interface OutputFileInput {
  /** The path as the user gave it (named in errors). */
  file: string;
  /** Replace an existing file (and a stale partial one). */
  force: boolean;
  /** The flag or member that named the file (`--out`, `file`), for error details. */
  field: string;
}

/**
 * Checks a file the CLI is about to write (an export, a backup) and returns its absolute path. The file
 * must be in an existing folder, must not be a folder, must not exist unless `force`, and must not be the
 * live database or its -wal, -shm or -journal file, however it is reached (symbolic links, `..`): writing
 * over those would destroy the database. Throws validation_failed or conflict.
 */
export function checkOutputFile(ctx: ServiceContext, { file, force, field }: OutputFileInput): string {
  const target = path.resolve(file);
  const invalid = (why: string) => validationFailed([{ path: field, message: `${file} ${why}` }]);
  const folder = statIfExists(path.dirname(target));
  if (!folder?.isDirectory()) throw invalid(`is in a folder that does not exist (${path.dirname(target)})`);
  const existing = statIfExists(target);
  if (existing?.isDirectory()) throw invalid('is a folder; give a file name');
  if (databaseFiles(ctx).has(realTarget(target))) throw invalid('is the database itself (or one of its -wal, -shm, -journal files)');
  if (existing && !force) throw conflict(`${file} already exists; pass --force to replace it`);
  return target;
}

/**
 * Clears the way for a partial file beside the target when `force` is set (a stale one, or a symbolic link
 * planted there: removing a link never touches what it points to); the partial file itself is then created
 * with O_EXCL (`wx`), which refuses any existing path, symbolic links included. Throws conflict.
 */
export function claimPartialFile(partial: string, force: boolean): void {
  const stale = lstatIfExists(partial);
  if (!stale) return;
  if (!force || stale.isDirectory()) throw conflict(`${partial} already exists (left by an interrupted run?); remove it or pass --force`);
  rmSync(partial);
}

/** The real paths of the database's files; the target's real path is compared with them. */
function databaseFiles(ctx: ServiceContext): Set<string> {
  // A PostgreSQL database has no file here.
  if (isPostgresUrl(ctx.config.dbPath)) return new Set();
  const database = realTarget(path.resolve(ctx.config.dbPath));
  return new Set([database, `${database}-wal`, `${database}-shm`, `${database}-journal`]);
}

/** The real path a file has or would have: its folder's real path plus its name, or its own if it exists. */
function realTarget(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    try {
      return path.join(realpathSync(path.dirname(file)), path.basename(file));
    } catch {
      return file;
    }
  }
}
