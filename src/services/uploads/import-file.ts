import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { statIfExists } from '../../lib/stat-if-exists';
import type { ServiceContext } from '../context';
import { notFound, ServiceError } from '../errors';
import { uploadFile } from './upload-files';

/** An import's original file, as GET /v1/imports/{id}/file sends it. */
export interface ImportFile {
  name: string;
  mime: string;
  sizeBytes: number;
  /** The bytes from `start` to `end` inclusive (a range), or all of them. */
  read(range?: { start: number; end: number }): Readable;
}

/**
 * The original file an import was made of (an upload kept with it, IMPORTD_KEEP_FILES). Throws not_found when the
 * import is not the account's, was not made of an upload, or its file was not kept.
 */
export async function importFile(ctx: ServiceContext, accountId: string, importId: string): Promise<ImportFile> {
  const upload = await ctx.store.uploads.findByImport(accountId, importId);
  const imported = upload && (await ctx.store.imports.find(accountId, importId));
  if (!upload || !imported?.file || imported.fileId !== upload.id) throw notFound('file of the import');
  const path = uploadFile(ctx, upload.id);
  const stats = statIfExists(path);
  if (!stats?.isFile()) throw notFound('file of the import');
  const file = JSON.parse(imported.file) as { name?: string; mime?: string };
  return {
    name: file.name ?? upload.id,
    mime: file.mime ?? 'application/octet-stream',
    sizeBytes: stats.size,
    read: (range) => createReadStream(path, range),
  };
}

/**
 * The single byte range a `Range` header asks of a file of `size` bytes (RFC 9110 section 14.1.2): `bytes=a-b`,
 * `bytes=a-`, `bytes=-n`. Undefined for no header or a form it does not serve (several ranges: the whole file
 * is sent). Throws range_not_satisfiable for a range wholly outside the file.
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const outside = () => new ServiceError('range_not_satisfiable', `the range ${header} is outside the file (${size} bytes)`);
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) throw outside();
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) throw outside();
  return { start, end };
}
