import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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
 * folder the other nodes use: the first node writes a random marker into it and the marker's value into the
 * database; every node that starts afterwards must read the same value from its own folder. A node whose
 * IMPORTD_FILES_DIR is not the shared folder would accept uploads no other node can finish. Throws FilesDirError.
 */
export async function checkFilesDir(ctx: Pick<ServiceContext, 'config' | 'store'>): Promise<void> {
  const dir = ctx.config.uploads.filesDir;
  await mkdir(uploadsDir(ctx), { recursive: true });
  if (!isPostgresUrl(ctx.config.dbPath)) return;
  const file = path.join(dir, MARKER);
  const mine = await readFile(file, 'utf8').catch(() => undefined);
  const candidate = randomBytes(16).toString('hex');
  const stored = await ctx.store.settings.insertOnce(MARKER_SETTING, mine ?? candidate);
  if (mine === stored) return;
  // The first node of this database (its value was stored just now) writes the marker; any later one must find it.
  if (mine === undefined && stored === candidate) {
    await writeFile(file, stored, { flag: 'wx' });
    return;
  }
  throw new FilesDirError(
    `IMPORTD_FILES_DIR: ${dir} is not the folder the other nodes of this database share (its ${MARKER} is ${mine === undefined ? 'missing' : 'different'}): mount the same folder on every node`,
  );
}
