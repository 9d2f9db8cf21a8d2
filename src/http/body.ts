import type { Context } from 'hono';
import { ServiceError } from '../services/errors';
import type { Limits } from '../config/config';
import type { ServiceContext } from '../services/context';
import { type ImportOptions, checkImportBytes, countedChunks, ndjsonImport, PARSE_IN_WORKER_BYTES, readImportBytes, type CheckedRows, type ImportBytes, type RowSlices } from '../services/imports';

export const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;
export const NDJSON_TYPE = /^application\/(?:x-)?ndjson\s*(?:;|$)/i;

/** True when a POST /imports body of this type is one readImportBody reads (JSON or NDJSON). */
export function isImportBodyType(contentType: string | undefined): boolean {
  return JSON_TYPE.test(contentType ?? '') || NDJSON_TYPE.test(contentType ?? '');
}

export interface ImportBody extends ImportOptions {
  meta?: unknown;
  originalSchema?: unknown;
  /**
   * Parsed slice by slice while the import is written (no single parse of the whole body, no zod pass): on
   * this thread for small bodies, already checked by the parse worker for large ones.
   */
  rows: RowSlices | CheckedRows;
  /**
   * The body's bytes: declared up front (a JSON body's length, an NDJSON Content-Length), and read so far (all
   * of them once the rows are stored): the account's quota and the ingestion metric count them.
   */
  bytes: ImportBytes;
}

/**
 * Reads a POST /imports body `{ rows, meta, originalSchema }`. The members other than `rows` are parsed at
 * once; the rows are located by a scan that yields to the event loop and parsed one slice at a time as the
 * writer asks for them. A large body is handed to the parse worker, so its parsing never holds this thread
 * and runs beside the writing. Throws unsupported_media_type, invalid_json (also from a slice, mid-write: the
 * writer then aborts the import), validation_failed (not an object, no rows array).
 */
export async function readImportBody(c: Context, ctx: ServiceContext): Promise<ImportBody> {
  const contentType = c.req.header('Content-Type') ?? '';
  if (NDJSON_TYPE.test(contentType)) return readNdjsonImportBody(c, ctx.config.limits);
  if (!JSON_TYPE.test(contentType)) {
    throw new ServiceError('unsupported_media_type', 'the request body must be sent as application/json or application/x-ndjson');
  }
  const bytes = await readBytes(c);
  const length = bytes.byteLength;
  const counted = { declared: length, read: () => length };
  if (length >= PARSE_IN_WORKER_BYTES) return { ...(await ctx.parsePool.parse(bytes)), bytes: counted };
  return { ...(await readImportBytes(bytes, ctx.config.limits.rowBytes)), bytes: counted };
}

/** Reads a streamed POST /imports body (`application/x-ndjson`, services' ndjsonImport) as it arrives. */
async function readNdjsonImportBody(c: Context, limits: Limits): Promise<ImportBody> {
  const declared = Number(c.req.header('Content-Length')) || 0;
  checkImportBytes(declared, limits.importBytes);
  let bytesRead = 0;
  const chunks = countedChunks(byteChunks(c.req.raw.body), limits.importBytes, (seen) => (bytesRead = seen));
  return { ...(await ndjsonImport(chunks, limits)), bytes: { declared, read: () => bytesRead } };
}

async function* byteChunks(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
  } finally {
    reader.releaseLock();
  }
}

/**
 * The whole body as bytes, copied chunk by chunk as it arrives (into one buffer of the declared length when
 * there is one): no single large copy or decode at the end to hold the event loop.
 */
async function readBytes(c: Context): Promise<Uint8Array> {
  const declared = Number(c.req.header('Content-Length'));
  if (!Number.isSafeInteger(declared) || declared <= 0 || c.req.header('Transfer-Encoding') !== undefined) {
    return new Uint8Array(await c.req.arrayBuffer());
  }
  const bytes = new Uint8Array(declared);
  let length = 0;
  for await (const chunk of byteChunks(c.req.raw.body)) {
    if (length + chunk.byteLength > declared) throw new ServiceError('invalid_json', 'the request body is longer than its Content-Length');
    bytes.set(chunk, length);
    length += chunk.byteLength;
  }
  return length === declared ? bytes : bytes.subarray(0, length);
}
