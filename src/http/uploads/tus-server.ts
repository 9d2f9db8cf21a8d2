import { mkdirSync } from 'node:fs';
import { FileStore } from '@tus/file-store';
import { Server, Upload, type KvStore } from '@tus/server';
import type { Logger } from '../../core/logger';
import type { Caller } from '../../services/auth';
import type { ServiceContext } from '../../services/context';
import { newId } from '../../core/ids';
import { createUpload, processUpload, uploadsDir } from '../../services/uploads';

/** What the route established about a request before handing it to tus: tus' hooks receive only the request. */
export interface TusRequest {
  caller: Caller;
  clientAddress?: string;
  /** The upload the request is about (HEAD, PATCH, DELETE), found and checked by the route. */
  uploadId?: string;
  /** An unfinished upload's expiry: the upload's, or the one a creation just made. */
  expiresAt?: string;
  /** What a hook threw, answered by the route in the API's own error shape. */
  failure?: unknown;
}

/**
 * @tus/file-store's constructor makes its folder without awaiting it and throws from the callback: a failure is an
 * uncaught exception some time after the app is built (in tests, a harness removed meanwhile). createTusServer
 * makes the folder itself, synchronously, where a failure is thrown to whoever builds the app.
 */
class MadeFolderFileStore extends FileStore {}
Object.defineProperty(MadeFolderFileStore.prototype, 'checkOrCreateDirectory', { value: () => undefined });

/**
 * The tus 1.0 server behind /v1/uploads (@tus/server, files written by @tus/file-store under the files folder).
 * Upload state lives in the database (the file store's config store reads it), so every node sharing the
 * database and the folder serves every upload. It speaks only the protocol: credentials, CORS, caps, expiry
 * and error rendering are the route's; a finished upload is handed to processUpload, off the request.
 */
export function createTusServer(ctx: ServiceContext, logger: Logger, requests: WeakMap<Request, TusRequest>): Server {
  mkdirSync(uploadsDir(ctx), { recursive: true });
  const datastore = new MadeFolderFileStore({ directory: uploadsDir(ctx), configstore: uploadRecords(ctx) });
  const pending = (req: Request): TusRequest => {
    const known = requests.get(req);
    if (!known) throw new Error('a tus request reached the server without passing the route');
    return known;
  };
  return new Server({
    path: '/v1/uploads',
    datastore,
    relativeLocation: true,
    // The route answers CORS for every /v1 request: tus adds no allowance of its own.
    allowedOrigins: () => false,
    maxSize: ctx.config.uploads.maxBytes,
    disableTerminationForFinishedUploads: true,
    namingFunction: () => newId(),
    getFileIdFromRequest: (req) => pending(req as unknown as Request).uploadId,
    async onUploadCreate(req, upload) {
      const known = pending(req as unknown as Request);
      try {
        known.expiresAt = (await createUpload(ctx, known.caller, { id: upload.id, sizeBytes: upload.size, metadata: upload.metadata ?? {}, clientAddress: known.clientAddress })).expiresAt;
      } catch (error) {
        known.failure = error;
        throw error;
      }
      return {};
    },
    async onUploadFinish(_req, upload) {
      void processUpload(ctx, upload.id).catch((error: unknown) =>
        logger.error('upload processing failed', { uploadId: upload.id, error: error instanceof Error ? error.message : String(error) }),
      );
      return {};
    },
  });
}

/** The file store's record of each upload, read from the uploads table (written by createUpload). */
function uploadRecords(ctx: ServiceContext): KvStore<Upload> {
  return {
    async get(id) {
      const row = await ctx.store.uploads.find(id);
      if (!row) return undefined;
      const metadata = JSON.parse(row.metadata) as Record<string, string | null>;
      return new Upload({ id, size: row.sizeBytes, offset: 0, metadata, creation_date: row.createdAt });
    },
    // Written by createUpload (onUploadCreate) with its owner, before the file store asks.
    async set() {},
    async delete(id) {
      await ctx.store.uploads.delete(id);
    },
  };
}
