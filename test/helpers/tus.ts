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

/** The id at the end of an upload URL. */
export const uploadIdOf = (url: string): string => url.split('/').pop()!;

/** Polls GET /v1/uploads/{id} until the upload is completed or failed; answers its view. */
export async function settledUpload(server: string, id: string, headers: Record<string, string>): Promise<any> {
  let view: any;
  await waitFor(async () => {
    const response = await fetch(`${server}/v1/uploads/${id}`, { headers });
    view = await response.json();
    return view.status === 'completed' || view.status === 'failed';
  }, 30_000);
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
