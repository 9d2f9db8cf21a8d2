/** An error answer of importd (its JSON error shape), or a request that never got one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
  ) {
    super(message);
  }
}

/** The element's credentials: what each request to importd carries. */
export interface Credentials {
  server: string;
  publicKey: string;
  sessionToken: string;
}

/** `status 0` means the browser gave no answer: the server is down, or CORS refused this page's origin. */
export const UNREACHABLE = 'unreachable';

/** The headers that carry the element's credentials (plus `extra`). */
export function headersOf(credentials: Credentials, extra: Record<string, string> = {}): Record<string, string> {
  return { 'X-Public-Key': credentials.publicKey, 'X-Session-Token': credentials.sessionToken, ...extra };
}

export function urlOf(credentials: Credentials, path: string): string {
  return `${credentials.server.replace(/\/+$/, '')}${path}`;
}

/**
 * A request to importd with a JSON body (or a Blob, sent with its type) and a JSON answer; error answers
 * become ApiError with the server's code, message and request id. An abort through `signal` rejects with
 * the browser's AbortError.
 */
export async function requestJson<T>(credentials: Credentials, method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  let response: Response;
  const blob = body instanceof Blob ? body : undefined;
  try {
    response = await fetch(urlOf(credentials, path), {
      method,
      headers: headersOf(credentials, body === undefined ? {} : { 'Content-Type': blob?.type ?? 'application/json' }),
      body: body === undefined ? null : (blob ?? JSON.stringify(body)),
      signal: signal ?? null,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, UNREACHABLE, '', undefined);
  }
  const text = await response.text();
  return answerOf<T>(response.status, text, response.headers.get('X-Request-Id') ?? undefined);
}

/** POSTs a body with upload progress (fetch reports none), answering like requestJson. */
export function upload<T>(credentials: Credentials, path: string, body: Blob, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', urlOf(credentials, path));
    for (const [name, value] of Object.entries(headersOf(credentials, { 'Content-Type': body.type }))) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, UNREACHABLE, '', undefined));
    xhr.onload = () => {
      try {
        resolve(answerOf<T>(xhr.status, xhr.responseText, xhr.getResponseHeader('X-Request-Id') ?? undefined));
      } catch (error) {
        reject(error);
      }
    };
    xhr.send(body);
  });
}

/** An answer's JSON when it is a success; else throws its ApiError. */
export function answerOf<T>(status: number, text: string, requestId: string | undefined): T {
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (status >= 200 && status < 300) return parsed as T;
  const error = (parsed as { error?: { code?: unknown; message?: unknown; requestId?: unknown } } | undefined)?.error;
  throw new ApiError(
    status,
    typeof error?.code === 'string' ? error.code : 'http_error',
    typeof error?.message === 'string' ? error.message : `HTTP ${status}`,
    typeof error?.requestId === 'string' ? error.requestId : requestId,
  );
}
