import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { StatusCode } from 'hono/utils/http-status';
import { ServiceError, type ErrorCode } from '../../services/errors';
import { checkUploadLength, findOwnUpload, getUpload, UploadView } from '../../services/uploads';
import { clientAddress } from '../client-address';
import type { AppDeps, AppEnv } from '../env';
import { headerOf, respond, respondJson, setHeader } from '../respond';
import { createRouter, defineRoute } from '../route';
import { errorResponses, jsonResponse } from '../schemas';
import { createTusServer, type TusRequest } from '../uploads/tus-server';

/** The tus headers a page's script must read (CORS), besides the API's own. */
export const TUS_EXPOSED = 'Location, Upload-Offset, Upload-Length, Upload-Metadata, Upload-Expires, Tus-Resumable, Tus-Version, Tus-Extension, Tus-Max-Size';

/** tus answers' statuses as the API's error codes (their bodies are tus' own words). */
const TUS_ERRORS: Partial<Record<number, ErrorCode>> = {
  400: 'validation_failed',
  403: 'conflict',
  404: 'not_found',
  409: 'conflict',
  410: 'upload_expired',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

const UploadParams = z.object({ uploadId: z.string().max(100) });

/**
 * /v1/uploads: the tus 1.0 protocol (creation, creation-with-upload, termination, expiration) behind the
 * credentials of POST /v1/imports: a Secret Key, or a Public Key from an allowed origin with a session token.
 * The route checks the caller, the upload's owner, its expiry and IMPORTD_MAX_UPLOAD_BYTES, hands the request to
 * tus, and answers tus' refusals in the API's error shape; GET tells where an upload stands.
 */
export function uploadRoutes(deps: AppDeps) {
  const { ctx } = deps;
  const router = createRouter();
  const requests = new WeakMap<Request, TusRequest>();
  const tus = createTusServer(ctx, deps.logger, requests);

  const { middleware: createMiddleware, ...create } = defineRoute(deps, 'secret-or-session', {
    method: 'post',
    path: '/uploads',
    tags: ['Uploads'],
    operationId: 'createUpload',
    description:
      'tus 1.0 creation (and creation-with-upload). Headers `Tus-Resumable: 1.0.0`, `Upload-Length` (at most IMPORTD_MAX_UPLOAD_BYTES) and `Upload-Metadata` (filename, filetype, templateId or templateKey, format, sheet, delimiter, charset, headerRow, mapping). Answers 201 with the upload URL in `Location`.',
    summary: 'Begin a resumable upload of a file to import (tus)',
    responses: { 201: { description: 'Created: `Location` is the upload URL' }, ...errorResponses(400, 403, 413) },
  });
  router.openAPIRegistry.registerPath(create);
  router.post('/uploads', ...createMiddleware, (c) => handOver(c, undefined));

  for (const [method, operationId, summary, description] of [
    ['patch', 'appendUpload', 'Send the next bytes of an upload (tus)', 'tus 1.0 PATCH: `Upload-Offset` must be the offset HEAD answers (else 409), `Content-Type: application/offset+octet-stream`. The last byte starts its processing into an import.'],
    ['delete', 'terminateUpload', 'Cancel an unfinished upload (tus termination)', 'tus 1.0 termination: removes an unfinished upload and its bytes (204). A finished upload cannot be terminated.'],
  ] as const) {
    const { middleware, ...route } = defineRoute(deps, 'secret-or-session', {
      method,
      path: '/uploads/{uploadId}',
      tags: ['Uploads'],
      operationId,
      description,
      summary,
      request: { params: UploadParams },
      responses: { 204: { description: 'Done; `Upload-Offset` is the new offset' }, ...errorResponses(400, 404, 409, 413) },
    });
    router.openAPIRegistry.registerPath(route);
    router.on(method.toUpperCase(), '/uploads/:uploadId', ...middleware, (c) => handOver(c, c.req.param('uploadId')));
  }

  const status = defineRoute(deps, 'secret-or-session', {
    method: 'get',
    path: '/uploads/{uploadId}',
    tags: ['Uploads'],
    operationId: 'getUpload',
    description:
      "Where an upload stands: `receiving` (bytes arriving), `processing` (rows read so far), `completed` (with `importId`) or `failed` (with the error, e.g. a 422 report). HEAD is tus' offset query (`Upload-Offset`, `Upload-Length`).",
    summary: 'An upload and the import it became',
    request: { params: UploadParams },
    responses: { 200: jsonResponse(UploadView, 'The upload'), ...errorResponses(404) },
  });
  // Hono routes HEAD to the GET route: that is tus' offset query.
  router.openapi(status, async (c) => {
    const id = c.req.valid('param').uploadId;
    if (c.req.method === 'HEAD') return handOver(c, id) as never;
    exposeTusHeaders(c);
    return respondJson(c, await getUpload(ctx, c.var.caller, id), 200);
  });

  /** Hands a checked request to tus and answers what it answers. */
  async function handOver(c: Context<AppEnv>, uploadId: string | undefined): Promise<Response> {
    exposeTusHeaders(c);
    const caller = c.var.caller;
    if (caller.principal.kind === 'public' && !caller.session) throw new ServiceError('invalid_session', 'a session token is required with a public key');
    const known: TusRequest = { caller, uploadId, clientAddress: clientAddress(c, ctx.config.trustedProxies) };
    let size = c.req.header('Upload-Length');
    if (uploadId !== undefined) {
      const row = await findOwnUpload(ctx, caller, uploadId);
      size = String(row.sizeBytes);
      if (row.status === 'receiving') {
        if (row.expiresAt <= ctx.clock().toISOString()) throw new ServiceError('upload_expired', 'the upload expired before it was finished (IMPORTD_UPLOAD_EXPIRE_SECONDS)');
        known.expiresAt = row.expiresAt;
      }
    } else if (c.req.header('Upload-Length') !== undefined && c.req.header('Tus-Resumable') !== undefined) {
      checkUploadLength(ctx, Number(c.req.header('Upload-Length')));
    }
    const request = c.req.raw;
    requests.set(request, known);
    const answer = await tus.handleWeb(request);
    if (known.failure !== undefined) throw known.failure;
    // A refusal's body is rewritten into the API's error shape: its type is no longer tus' text/plain.
    const skipped = answer.status >= 400 ? /^access-control-|^content-length$|^content-type$/i : /^access-control-|^content-length$/i;
    answer.headers.forEach((value, name) => {
      if (!skipped.test(name)) setHeader(c, name, value);
    });
    if (answer.status >= 400) throw await tusError(answer);
    // Unfinished after this request (a finished one's 204 has no next step to expire).
    const offset = answer.headers.get('Upload-Offset');
    if (known.expiresAt !== undefined && offset !== size) {
      setHeader(c, 'Upload-Expires', new Date(known.expiresAt).toUTCString());
    }
    return respond(c, answer.body, answer.status as StatusCode);
  }
  return router;
}

/** A browser's tus client reads offsets and addresses from every /v1/uploads answer it is allowed to read. */
function exposeTusHeaders(c: Context<AppEnv>): void {
  if (headerOf(c, 'Access-Control-Allow-Origin') !== undefined) {
    setHeader(c, 'Access-Control-Expose-Headers', TUS_EXPOSED, { append: true });
  }
}

async function tusError(answer: Response): Promise<ServiceError> {
  const text = (await answer.text()).trim();
  const code = TUS_ERRORS[answer.status] ?? (answer.status >= 500 ? 'internal_error' : 'validation_failed');
  return new ServiceError(code, text === '' ? `the upload request was refused (${answer.status})` : text);
}
