import path from 'node:path';
import { isoTime } from '../../core/clock';
import type { Caller } from '../auth';
import type { ServiceContext } from '../context';
import { ServiceError, validationFailed } from '../errors';
import { parseInput } from '../validate';
import { UploadMetadata, UPLOAD_FORMATS, type UploadFormat } from './schemas';

/** tus' Upload-Metadata, decoded: a value may be missing (a key sent alone). */
export type TusMetadata = Record<string, string | null>;

export interface NewUpload {
  id: string;
  /** Upload-Length; undefined when the client deferred it (refused: the caps are checked before any byte). */
  sizeBytes: number | undefined;
  metadata: TusMetadata;
  /** The client's network address: the end-user IP when the session names none. */
  clientAddress?: string;
}

/** Who an upload belongs to and how its import will be attributed (stored as the upload's `owner`). */
export interface UploadOwner {
  importedFrom: string;
  session?: Caller['session'];
  clientAddress?: string;
}

/** Refuses an upload over IMPORTD_MAX_UPLOAD_BYTES, before a byte of it is stored. Throws payload_too_large. */
export function checkUploadLength(ctx: Pick<ServiceContext, 'config'>, sizeBytes: number | undefined): number {
  if (sizeBytes === undefined) {
    throw validationFailed([{ path: 'Upload-Length', message: 'send Upload-Length: the size must be known when the upload is created' }]);
  }
  const max = ctx.config.uploads.maxBytes;
  if (sizeBytes > max) throw new ServiceError('payload_too_large', `the upload exceeds ${max} bytes (IMPORTD_MAX_UPLOAD_BYTES)`);
  return sizeBytes;
}

/**
 * Records a new upload for the caller (a Secret Key, or a Public Key with a session, whose template the upload
 * must use) once its length and metadata pass: within IMPORTD_MAX_UPLOAD_BYTES and, with the account's other
 * unfinished uploads, IMPORTD_UPLOAD_QUOTA_BYTES. Returns when it expires unfinished. Throws invalid_session (a Public Key without a session),
 * payload_too_large, quota_exceeded, template_not_allowed, validation_failed.
 */
export async function createUpload(ctx: ServiceContext, caller: Caller, input: NewUpload): Promise<{ expiresAt: string }> {
  if (caller.principal.kind === 'public' && !caller.session) throw new ServiceError('invalid_session', 'a session token is required with a public key');
  const sizeBytes = checkUploadLength(ctx, input.sizeBytes);
  const metadata = parseUploadMetadata(input.metadata);
  uploadFormat(metadata);
  const session = caller.session;
  if (session?.templateId && metadata.templateId !== undefined && metadata.templateId !== session.templateId) {
    throw new ServiceError('template_not_allowed', 'the session token allows imports into its own template only');
  }
  if (!session?.templateId && metadata.templateId === undefined && metadata.templateKey === undefined) {
    throw validationFailed([{ path: 'Upload-Metadata', message: 'name the template: templateId or templateKey' }]);
  }
  const owner: UploadOwner = { importedFrom: caller.origin ?? 'api', session, clientAddress: input.clientAddress };
  const now = ctx.clock();
  const createdAt = isoTime(() => now);
  const expiresAt = new Date(now.getTime() + ctx.config.uploads.expireSeconds * 1000).toISOString();
  const inserted = await ctx.store.uploads.insert(
    {
      id: input.id,
      accountId: caller.principal.accountId,
      environmentId: caller.principal.environmentId,
      endUserId: session?.endUserId ?? null,
      owner: JSON.stringify(owner),
      metadata: JSON.stringify(input.metadata),
      sizeBytes,
      status: 'receiving',
      rowsProcessed: 0,
      importId: null,
      error: null,
      leaseNode: null,
      leaseUntil: null,
      createdAt,
      expiresAt,
      updatedAt: createdAt,
    },
    ctx.config.uploads.quotaBytes,
  );
  if (!inserted) {
    throw new ServiceError('quota_exceeded', `the account's unfinished uploads would exceed ${ctx.config.uploads.quotaBytes} bytes (IMPORTD_UPLOAD_QUOTA_BYTES)`);
  }
  return { expiresAt };
}

/** Upload-Metadata checked against what the server understands. Throws validation_failed (paths `metadata.<key>`). */
export function parseUploadMetadata(raw: TusMetadata): UploadMetadata {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) if (value !== null) values[key] = value;
  try {
    return parseInput(UploadMetadata, values);
  } catch (error) {
    if (error instanceof ServiceError && error.details) {
      throw validationFailed(error.details.map((detail) => ({ ...detail, path: `metadata.${detail.path}` })));
    }
    throw error;
  }
}

const EXTENSIONS: Record<string, UploadFormat> = { csv: 'csv', txt: 'csv', tsv: 'tsv', tab: 'tsv', ndjson: 'ndjson', jsonl: 'ndjson', xlsx: 'xlsx' };
const TYPES: Record<string, UploadFormat> = {
  'text/csv': 'csv',
  'text/tab-separated-values': 'tsv',
  'application/x-ndjson': 'ndjson',
  'application/jsonl': 'ndjson',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

/** The format an upload is read as: metadata `format`, else the file name's extension, else its type. Throws validation_failed. */
export function uploadFormat(metadata: UploadMetadata): UploadFormat {
  const format = metadata.format ?? EXTENSIONS[path.extname(metadata.filename ?? '').slice(1).toLowerCase()] ?? TYPES[metadata.filetype ?? ''];
  if (format === undefined) {
    throw validationFailed([{ path: 'metadata.format', message: `give a .csv, .tsv, .ndjson or .xlsx file name, or format (${UPLOAD_FORMATS.join(', ')})` }]);
  }
  return format;
}
