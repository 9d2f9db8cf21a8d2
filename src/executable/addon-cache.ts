import { createHash, randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Where the executable may put its native addon, and who it runs as. */
export interface CacheEnvironment {
  env: Record<string, string | undefined>;
  homedir: string;
  tmpdir: string;
  uid: number;
}

/**
 * The folders tried in order: `$IMPORTD_CACHE_DIR`, `$XDG_CACHE_HOME/importd`, `~/.cache/importd`,
 * `$TMPDIR/importd-<uid>`. Unset or empty variables are skipped.
 */
export function cacheFolders({ env, homedir, tmpdir, uid }: CacheEnvironment): string[] {
  const folders = [
    env.IMPORTD_CACHE_DIR,
    env.XDG_CACHE_HOME ? path.join(env.XDG_CACHE_HOME, 'importd') : undefined,
    homedir ? path.join(homedir, '.cache', 'importd') : undefined,
    path.join(env.TMPDIR || tmpdir, `importd-${uid}`),
  ];
  return [...new Set(folders.filter((folder): folder is string => Boolean(folder)).map((f) => path.resolve(f)))];
}

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Creates `folder` (mode 0700) and refuses it unless it is a real directory owned by `uid` that nobody else
 * can write to: another user who can write there could swap the library between our check and the load.
 */
export function prepareFolder(folder: string, uid: number): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stat = lstatSync(folder);
  if (!stat.isDirectory()) throw new Error(`${folder} is not a directory`);
  if (uid >= 0 && stat.uid !== uid) throw new Error(`${folder} is owned by uid ${stat.uid}, not ${uid}`);
  if ((stat.mode & 0o022) !== 0) throw new Error(`${folder} is writable by other users`);
}

/**
 * Returns the path of `fileName` in `folder` holding exactly `bytes`. An existing file is re-hashed on every
 * call (a truncated or altered copy is replaced); a new copy is written to a temporary name and renamed, so
 * a concurrent start never sees a half-written library.
 */
export function ensureFile(folder: string, fileName: string, bytes: Uint8Array, hash: string): string {
  const target = path.join(folder, fileName);
  if (existsSync(target) && sha256(readFileSync(target)) === hash) return target;
  const temporary = path.join(folder, `.${fileName}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, bytes, { mode: 0o600 });
    if (sha256(readFileSync(temporary)) !== hash) throw new Error(`${temporary} does not read back as written`);
    renameSync(temporary, target);
  } finally {
    rmSync(temporary, { force: true });
  }
  return target;
}

/**
 * Writes the addon into the first usable cache folder and loads it with `load`. A folder that cannot be
 * created, is unsafe, is not writable, or whose copy cannot be loaded (a `noexec` mount makes dlopen fail)
 * is skipped for the next. Throws one error naming every folder tried and why, when none works.
 */
export function installAddon<T>(
  bytes: Uint8Array,
  folders: string[],
  uid: number,
  load: (file: string) => T,
): { file: string; exports: T } {
  const hash = sha256(bytes);
  const fileName = `better_sqlite3-${hash}.node`;
  const failures: string[] = [];
  for (const folder of folders) {
    try {
      prepareFolder(folder, uid);
      const file = ensureFile(folder, fileName, bytes, hash);
      return { file, exports: load(file) };
    } catch (error) {
      failures.push(`${folder}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(
    `cannot install the SQLite addon in any cache folder (set IMPORTD_CACHE_DIR to a writable folder on a ` +
      `filesystem that allows executables):\n  ${failures.join('\n  ')}`,
  );
}
