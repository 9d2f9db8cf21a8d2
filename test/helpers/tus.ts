import type { ReadStream } from 'node:fs';
import { Upload, type UploadOptions } from 'tus-js-client';
import { waitFor } from './live-server';

/** Sends `data` to `${server}/v1/uploads` with tus' own client (tus-js-client, from Node); resolves with the upload's URL. */
export function tusUpload(server: string, data: Buffer, options: Partial<UploadOptions> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new Upload(data, {
      endpoint: `${server}/v1/uploads`,
      retryDelays: [],
      ...options,
      onSuccess: () => resolve(upload.url!),
      onError: reject,
    });
    upload.start();
  });
}

/**
 * Sends a file with tus-js-client in chunks, cutting the connection at each of `cuts` (shares of its bytes: the
 * request in flight is aborted mid-body) and resuming with a new client from the upload URL. `source` opens the
 * file again for each leg (a Buffer, or a file's ReadStream, which tus-js-client reads at any offset by its path).
 * Resolves with the upload URL.
 */
export async function tusUploadWithCuts(server: string, source: () => Buffer | ReadStream, size: number, cuts: number[], options: Partial<UploadOptions> = {}): Promise<string> {
  let url: string | undefined;
  for (let leg = 0; leg <= cuts.length; leg++) {
    const cutAt = leg < cuts.length ? Math.floor(size * cuts[leg]!) : Infinity;
    url = await new Promise<string | undefined>((resolve, reject) => {
      const upload: Upload = new Upload(source(), {
        endpoint: `${server}/v1/uploads`,
        retryDelays: [],
        uploadSize: size,
        chunkSize: Math.max(1024 ** 2, Math.ceil(size / 16)),
        ...options,
        ...(url !== undefined && { uploadUrl: url }),
        onProgress: (sent) => {
          if (sent < cutAt) return;
          const at = upload.url ?? undefined;
          upload.abort().then(() => resolve(at), reject);
        },
        onSuccess: () => resolve(upload.url!),
        onError: reject,
      });
      upload.start();
    });
    if (url === undefined) throw new Error('the upload was cut before it had a URL');
  }
  return url!;
}

/** The id at the end of an upload URL. */
export const uploadIdOf = (url: string): string => url.split('/').pop()!;

/** Polls GET /v1/uploads/{id} until the upload is completed or failed; answers its view. */
export async function settledUpload(server: string, id: string, headers: Record<string, string>, timeoutMs = 30_000): Promise<any> {
  let view: any;
  // A long wait polls less often: every request is work the server's processing shares the CPU with.
  const pause = Math.max(0, timeoutMs / 1000 - 10);
  await waitFor(async () => {
    const response = await fetch(`${server}/v1/uploads/${id}`, { headers });
    view = await response.json();
    const settled = view.status === 'completed' || view.status === 'failed';
    if (!settled && pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    return settled;
  }, timeoutMs);
  return view;
}

/** tus metadata as the Upload-Metadata header carries it: `key base64(value)` pairs. */
export function tusMetadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
}

/** A raw tus request (for answers tus-js-client hides): `Tus-Resumable: 1.0.0` and the caller's headers. */
export function tusRequest(server: string, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Response> {
  const sent: Record<string, string> = { 'Tus-Resumable': '1.0.0', ...headers };
  if (body !== undefined) sent['Content-Type'] ??= 'application/offset+octet-stream';
  return fetch(new URL(path, server), { method, headers: sent, body });
}
