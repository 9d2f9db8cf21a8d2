import { DetailedError, Upload, type PreviousUpload } from 'tus-js-client';
import { answerOf, ApiError, headersOf, requestJson, UNREACHABLE, urlOf, type Credentials } from './api';

/**
 * Bytes sent by one PATCH: a proxy in front of importd may cap a request's body (Cloudflare at 100 MB), and a
 * cut connection loses at most the part of a chunk the server had not stored.
 */
const CHUNK_BYTES = 16 * 1024 * 1024;
/** How often GET /v1/uploads/{id} is asked while the server reads the rows. */
const POLL_MS = 1000;

/** What the end-user sees of an upload: bytes sent, then rows read by the server. */
export interface UploadProgress {
  /** An upload begun earlier (before a page reload) goes on from where the server is. */
  resuming(): void;
  bytes(sent: number, total: number): void;
  rows(count: number): void;
}

/**
 * Sends `file` to /v1/uploads with tus (resumed after a dropped connection, and after a page reload when the
 * same file is chosen with the same reading: tus-js-client keeps the upload's URL in localStorage), then
 * waits for the server to read it into an import. Throws ApiError (the server's error for a refused file).
 */
export async function importByUpload(credentials: Credentials, file: File, metadata: Record<string, string>, progress: UploadProgress, signal: AbortSignal): Promise<{ importId: string; rowCount: number }> {
  const id = await sendFile(credentials, file, metadata, progress, signal);
  for (;;) {
    const view = await requestJson<UploadView>(credentials, 'GET', `/v1/uploads/${encodeURIComponent(id)}`);
    if (view.status === 'completed') return { importId: view.importId!, rowCount: view.rowsProcessed };
    if (view.status === 'failed') throw new ApiError(view.error?.errors ? 422 : 400, String(view.error?.code ?? 'http_error'), String(view.error?.message ?? ''), undefined);
    progress.rows(view.rowsProcessed);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (signal.aborted) throw new ApiError(0, 'aborted', 'the importer was removed from the page', undefined);
  }
}

interface UploadView {
  status: 'receiving' | 'processing' | 'completed' | 'failed';
  rowsProcessed: number;
  importId: string | null;
  error: { code?: unknown; message?: unknown; errors?: unknown } | null;
}

/** Resolves with the upload's id once every byte is on the server. */
function sendFile(credentials: Credentials, file: File, metadata: Record<string, string>, progress: UploadProgress, signal: AbortSignal): Promise<string> {
  const headers = headersOf(credentials);
  return new Promise((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: urlOf(credentials, '/v1/uploads'),
      headers,
      metadata,
      chunkSize: CHUNK_BYTES,
      retryDelays: [0, 1000, 3000, 5000, 10000],
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => progress.bytes(sent, total),
      onSuccess: () => resolve(upload.url!.split('/').pop()!),
      onError: (error) => reject(apiErrorOf(error)),
    });
    signal.addEventListener('abort', () => void upload.abort(false), { once: true });
    void upload
      .findPreviousUploads()
      .then((previous) => {
        const same = previous.find((earlier) => sameMetadata(earlier, metadata));
        // Uploads of this file read another way (another mapping) are cancelled: their room counts in the quota.
        for (const stale of previous.filter((earlier) => earlier !== same)) forget(stale, headers);
        if (same) {
          upload.resumeFromPreviousUpload(same);
          progress.resuming();
        }
      })
      .catch(() => undefined)
      .then(() => upload.start());
  });
}

function sameMetadata(earlier: PreviousUpload, metadata: Record<string, string>): boolean {
  const keys = Object.keys(metadata);
  return Object.keys(earlier.metadata).length === keys.length && keys.every((key) => earlier.metadata[key] === metadata[key]);
}

function forget(stale: PreviousUpload, headers: Record<string, string>): void {
  localStorage.removeItem(stale.urlStorageKey);
  if (stale.uploadUrl) void Upload.terminate(stale.uploadUrl, { headers }).catch(() => undefined);
}

function apiErrorOf(error: Error): ApiError {
  const response = error instanceof DetailedError ? error.originalResponse : null;
  if (!response || response.getStatus() === 0) return new ApiError(0, UNREACHABLE, '', undefined);
  try {
    answerOf(response.getStatus(), response.getBody() ?? '', response.getHeader('X-Request-Id') ?? undefined);
  } catch (answered) {
    if (answered instanceof ApiError) return answered;
  }
  return new ApiError(response.getStatus(), 'http_error', error.message, undefined);
}
