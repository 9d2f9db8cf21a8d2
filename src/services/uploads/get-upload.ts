import type { UploadRow } from '../../db/store';
import type { Caller } from '../auth';
import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import type { UploadView } from './schemas';

/**
 * The upload, when the caller may see it: one of its account's (a Secret Key), or one its session's end-user
 * sent through that session's environment (a Public Key). Anything else is not_found: never reveal it exists.
 */
export async function findOwnUpload(ctx: ServiceContext, caller: Caller, id: string): Promise<UploadRow> {
  const row = await ctx.store.uploads.find(id);
  if (!row || row.accountId !== caller.principal.accountId) throw notFound('upload');
  if (caller.principal.kind === 'public') {
    const session = caller.session;
    if (!session || row.environmentId !== session.environmentId || row.endUserId !== session.endUserId) throw notFound('upload');
  }
  return row;
}

/** GET /v1/uploads/{id}: where the upload stands. Throws not_found. */
export async function getUpload(ctx: ServiceContext, caller: Caller, id: string): Promise<UploadView> {
  return toUploadView(await findOwnUpload(ctx, caller, id));
}

export function toUploadView(row: UploadRow): UploadView {
  return {
    id: row.id,
    status: row.status,
    sizeBytes: row.sizeBytes,
    rowsProcessed: row.rowsProcessed,
    importId: row.importId,
    error: row.error === null ? null : (JSON.parse(row.error) as Record<string, unknown>),
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  };
}
