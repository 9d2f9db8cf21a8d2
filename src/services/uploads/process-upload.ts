import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { UploadRow } from '../../db/store';
import { isoTime } from '../../core/clock';
import { formatBytes } from '../../lib/format-bytes';
import type { ServiceContext } from '../context';
import { conflict, RowsInvalidError, ServiceError } from '../errors';
import { createImport, type RowSlice, type RowSlices } from '../imports';
import { keepLease, leaseEnd, type LeaseKeeper } from '../leases';
import { parseUploadMetadata, uploadFormat, type UploadOwner } from './create-upload';
import { fileRows } from './file-rows';
import { READ_PIECE_BYTES, removeUploadFile, uploadFile } from './upload-files';

/**
 * Turns a finished upload into an import through the same path as POST /v1/imports (template resolution,
 * validation, datasets, the `import.completed` webhook), reading its file as its metadata says. The upload is
 * this node's under a lease (IMPORTD_LEASE_SECONDS), renewed with the rows read so far; a node that dies
 * leaves it to be claimed again (sweepUploads), and an import already completed from it is found (by its
 * `fileId`) rather than written twice. A refused file ends the upload `failed` with the error as an API would
 * answer it, and its file is removed. Resolves once done; does nothing when another node holds the upload.
 * Rethrows what is not the file's fault (after recording it), for the caller to log.
 */
export async function processUpload(ctx: ServiceContext, id: string): Promise<void> {
  const node = ctx.store.nodeId;
  if (!(await ctx.store.uploads.claim(id, node, isoTime(ctx.clock), leaseEnd(ctx)))) return;
  const row = await ctx.store.uploads.find(id);
  if (!row) return;
  let rows = 0;
  const lease = keepLease(ctx, (until) => ctx.store.uploads.progress(id, node, rows, until));
  try {
    const done = await ctx.store.uploads.importOf(row.accountId, id);
    const made = done === undefined ? await importUpload(ctx, row, lease, (count) => (rows += count)) : undefined;
    lease.stop();
    // The file goes first (when it is not kept): whoever sees the upload settled finds the disk space given back.
    if (!ctx.config.uploads.keepFiles) await removeUploadFile(ctx, id);
    await ctx.store.uploads.finish(id, node, { status: 'completed', importId: done ?? made!.id, error: null, rows: made?.rowCount ?? rows, now: isoTime(ctx.clock) });
  } catch (error) {
    lease.stop();
    // Taken over by another node: the upload is that node's to finish.
    if (lease.lost) return;
    await removeUploadFile(ctx, id);
    await ctx.store.uploads.finish(id, node, { status: 'failed', importId: null, error: JSON.stringify(failureBody(error)), rows, now: isoTime(ctx.clock) });
    if (!(error instanceof ServiceError) || error.code === 'internal_error') throw error;
  }
}

/** The import made of the upload's file, its original file recorded with it. */
async function importUpload(ctx: ServiceContext, row: UploadRow, lease: LeaseKeeper, counted: (rows: number) => void) {
  const metadata = parseUploadMetadata(JSON.parse(row.metadata) as Record<string, string | null>);
  const owner = JSON.parse(row.owner) as UploadOwner;
  const format = uploadFormat(metadata);
  const file = uploadFile(ctx, row.id);
  const sha256 = await fileSha256(file);
  const source = await fileRows(file, format, metadata, ctx.config.limits);
  const templateId = owner.session?.templateId ?? metadata.templateId;
  const template = templateId !== undefined ? await ctx.store.templates.find(row.accountId, templateId) : await ctx.store.templates.findByKey(row.accountId, metadata.templateKey!);
  const name = metadata.filename ?? row.id;
  const fileMeta = {
    ...(ctx.config.uploads.keepFiles && { fileId: row.id }),
    name,
    sizeBytes: row.sizeBytes,
    formattedSize: formatBytes(row.sizeBytes),
    mime: metadata.filetype ?? MIME[format],
    sha256,
    sheet: source.sheet ?? null,
  };
  const created = await createImport(
    ctx,
    { accountId: row.accountId, environmentId: row.environmentId, importedFrom: owner.importedFrom, session: owner.session, clientAddress: owner.clientAddress },
    {
      meta: {
        ...(templateId !== undefined ? { schemaId: templateId } : { schemaKey: metadata.templateKey }),
        source: { kind: 'upload' },
        file: fileMeta,
        ...(metadata.mapping && { mapping: metadata.mapping }),
      },
      originalSchema: template ? (JSON.parse(template.schema) as unknown) : { key: metadata.templateKey },
      rows: watched(source.rows, lease, counted),
      bytes: { declared: row.sizeBytes, read: source.bytesRead },
      mode: metadata.mode,
    },
  );
  // An upload's metadata has no dryRun: what createImport answers is a stored import.
  if ('dryRun' in created) throw new Error('an upload was processed as a dry run');
  return created;
}

const MIME = { csv: 'text/csv', tsv: 'text/tab-separated-values', ndjson: 'application/x-ndjson', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };

/** The rows as they are read, counted; stopped when the upload's lease was lost (another node took it over). */
async function* watched(rows: RowSlices, lease: LeaseKeeper, counted: (rows: number) => void): AsyncGenerator<RowSlice> {
  for await (const slice of rows) {
    if (lease.lost) throw conflict('the upload was taken over by another node');
    counted(slice.length);
    yield slice;
  }
}

async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: READ_PIECE_BYTES })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A failed upload's error, as the API would have answered it (without a request id). */
function failureBody(error: unknown): Record<string, unknown> {
  if (!(error instanceof ServiceError)) return { code: 'internal_error', message: 'the upload could not be processed' };
  return {
    code: error.code,
    message: error.message,
    ...(error.details && { details: error.details }),
    ...(error instanceof RowsInvalidError && { errors: error.errors, errorCount: error.errorCount }),
  };
}
