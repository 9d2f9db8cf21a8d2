import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isPostgresUrl } from '../../core/database-url';
import type { ServiceContext } from '../context';

/**
 * The pieces an upload's file is read in to be processed (hashed, inflated, parsed). Each piece is a native
 * buffer that lives until the garbage collector frees it, outside the V8 heap and its limit: small pieces keep
 * the process' resident memory low while a file of gigabytes streams through (the reads cost the same).
 */
export const READ_PIECE_BYTES = 32 * 1024;

/** Where uploads are written (by @tus/file-store) and kept: one file per upload, named by its id. */
export function uploadsDir(ctx: Pick<ServiceContext, 'config'>): string {
  return path.join(ctx.config.uploads.filesDir, 'uploads');
}

export function uploadFile(ctx: Pick<ServiceContext, 'config'>, id: string): string {
  return path.join(uploadsDir(ctx), id);
}

/** Removes an upload's file (gone already is fine): the disk space is given back at once. */
export async function removeUploadFile(ctx: Pick<ServiceContext, 'config'>, id: string): Promise<void> {
  await rm(uploadFile(ctx, id), { force: true });
}

const MARKER = '.importd-files-marker';
const MARKER_SETTING = 'files-dir-marker';

export class FilesDirError extends Error {
  override name = 'FilesDirError';
}

/**
 * Makes sure the files folder exists and, on PostgreSQL (several nodes may share the database), that it is the
 * folder the other nodes use: the folder holds a random marker and the database the marker's value; the first
 * node to start stores its folder's value, every other one must find the same value in its own folder. A node
 * whose IMPORTD_FILES_DIR is not the shared folder would accept uploads no other node can finish. Throws
 * FilesDirError.
 */
export async function checkFilesDir(ctx: Pick<ServiceContext, 'config' | 'store'>): Promise<void> {
  const dir = ctx.config.uploads.filesDir;
  await mkdir(uploadsDir(ctx), { recursive: true });
  if (!isPostgresUrl(ctx.config.dbPath)) return;
  const mine = await folderMarker(path.join(dir, MARKER));
  if ((await ctx.store.settings.insertOnce(MARKER_SETTING, mine)) === mine) return;
  throw new FilesDirError(
    `IMPORTD_FILES_DIR: ${dir} is not the folder the other nodes of this database share (its ${MARKER} is different): mount the same folder on every node`,
  );
}

/**
 * The folder's marker: the one there, or a new one put there by link(), which fails when another node's came
 * first (atomic on local disks and NFS alike), so nodes started together on an empty shared folder agree.
 */
async function folderMarker(file: string): Promise<string> {
  const candidate = `${file}.${randomBytes(8).toString('hex')}`;
  await writeFile(candidate, randomBytes(16).toString('hex'));
  try {
    await link(candidate, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(candidate);
  }
  return readFile(file, 'utf8');
}
