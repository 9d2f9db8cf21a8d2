import { isoTime } from '../../core/clock';
import type { ServiceContext } from '../context';
import { processUpload } from './process-upload';
import { removeUploadFile } from './upload-files';

const BATCH = 100;

export interface SweepResult {
  resumed: number;
  expired: number;
  removed: number;
}

/**
 * Looks after uploads no request is looking after, on any node: resumes the processing of uploads whose node
 * stopped renewing its lease (processUpload claims each, so two nodes never do one), removes unfinished (and
 * failed) uploads past IMPORTD_UPLOAD_EXPIRE_SECONDS with their files, and the kept files of imports that are
 * gone (deleted, erased with their end-user, purged by retention). Run at server start and then every
 * IMPORTD_LEASE_SECONDS; `signal` stops it between two uploads.
 */
export async function sweepUploads(ctx: ServiceContext, signal?: AbortSignal, onError?: (error: unknown) => void): Promise<SweepResult> {
  const result: SweepResult = { resumed: 0, expired: 0, removed: 0 };
  const { resume, expired } = await ctx.store.uploads.due(isoTime(ctx.clock), BATCH);
  for (const id of expired) {
    if (signal?.aborted) return result;
    await removeUploadFile(ctx, id);
    await ctx.store.uploads.delete(id);
    result.expired++;
  }
  result.removed = await removeOrphanedFiles(ctx, signal);
  for (const id of resume) {
    if (signal?.aborted) return result;
    await processUpload(ctx, id).catch((error: unknown) => onError?.(error));
    result.resumed++;
  }
  return result;
}

/** Removes the kept files (and upload records) of imports that no longer exist; returns how many. */
export async function removeOrphanedFiles(ctx: ServiceContext, signal?: AbortSignal): Promise<number> {
  let removed = 0;
  for (;;) {
    const ids = await ctx.store.uploads.orphaned(BATCH);
    for (const id of ids) {
      if (signal?.aborted) return removed;
      await removeUploadFile(ctx, id);
      await ctx.store.uploads.delete(id);
      removed++;
    }
    if (ids.length < BATCH) return removed;
  }
}
