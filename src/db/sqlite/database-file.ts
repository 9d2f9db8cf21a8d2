import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../../core/file-modes';
import { statIfExists } from '../../lib/stat-if-exists';

/** Why a database path cannot be used: `missing` (and not to be created here) or `unusable` (the OS refused). */
export class DatabaseFileError extends Error {
  override name = 'DatabaseFileError';
  constructor(
    readonly kind: 'missing' | 'unusable',
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Makes sure `file` (an absolute path) can be opened as the database: an existing file is used as it is;
 * a missing one is created, with any missing folders, only when `create` is set (0600 in 0700 folders), so
 * a read-only command pointed at the wrong place says so instead of showing an empty new database.
 * Returns true when it created the file. Throws DatabaseFileError.
 */
export function prepareDatabaseFile(file: string, create: boolean): boolean {
  const existing = statIfExists(file);
  if (existing?.isDirectory()) throw unusable(file, 'it is a folder');
  if (existing) return false;
  if (!create) throw new DatabaseFileError('missing', file, `no database at ${file}`);
  try {
    makeFolders(path.dirname(file));
    closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
    return true;
  } catch (error) {
    // Another process created it meanwhile: that one is the database now.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statIfExists(file)?.isFile()) return false;
    throw unusable(file, error);
  }
}

/** The OS error behind an unusable database path, with the path named. */
export function unusable(file: string, error: unknown): DatabaseFileError {
  const reason = error instanceof Error ? error.message : String(error);
  // SQLite's own message does not name the file.
  return new DatabaseFileError('unusable', file, `cannot use ${file} as the database: ${reason}`);
}

/**
 * Creates the missing folders of `folder` one level at a time. Node's `mkdirSync(..., { recursive: true })`
 * never returns on some paths (`/proc/nope`: it retries the parent forever); walking up to the first
 * existing ancestor and creating each level plainly fails at once with the OS error instead.
 */
function makeFolders(folder: string): void {
  const missing: string[] = [];
  for (let current = folder; !statIfExists(current); current = path.dirname(current)) {
    if (path.dirname(current) === current) break;
    missing.unshift(current);
  }
  for (const level of missing) mkdirSync(level, { mode: PRIVATE_FOLDER_MODE });
}
