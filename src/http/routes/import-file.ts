import { Readable } from 'node:stream';
import { z } from '@hono/zod-openapi';
import { byteRange, importFile } from '../../services/uploads';
import type { AppDeps } from '../env';
import { respond, setHeader } from '../respond';
import { createRouter, defineRoute } from '../route';
import { errorResponses } from '../schemas';

const ImportParams = z.object({ importId: z.string().max(100) });

/** GET /v1/imports/{id}/file: the original file an import was made of (a kept upload), with range requests. */
export function importFileRoutes(deps: AppDeps) {
  const { ctx } = deps;
  const router = createRouter();
  const route = defineRoute(deps, 'secret', {
    method: 'get',
    path: '/imports/{importId}/file',
    tags: ['Imports'],
    operationId: 'getImportFile',
    description:
      'Secret Key. Streams the file the import was made of (a resumable upload kept with it, IMPORTD_KEEP_FILES), as an attachment; `Range: bytes=a-b` answers 206 with that part.',
    summary: 'The original file of an import made from an upload',
    request: { params: ImportParams },
    responses: {
      200: { description: 'The file', content: { 'application/octet-stream': { schema: z.string() } } },
      206: { description: 'The part of the file the Range asked for', content: { 'application/octet-stream': { schema: z.string() } } },
      ...errorResponses(404),
    },
  });
  router.openapi(route, async (c) => {
    const file = await importFile(ctx, c.var.caller.principal.accountId, c.req.valid('param').importId);
    setHeader(c, 'Content-Disposition', contentDisposition(file.name));
    setHeader(c, 'Accept-Ranges', 'bytes');
    let range: { start: number; end: number } | undefined;
    try {
      range = byteRange(c.req.header('Range'), file.sizeBytes);
    } catch (error) {
      setHeader(c, 'Content-Range', `bytes */${file.sizeBytes}`);
      throw error;
    }
    const length = range ? range.end - range.start + 1 : file.sizeBytes;
    setHeader(c, 'Content-Length', String(length));
    if (range) setHeader(c, 'Content-Range', `bytes ${range.start}-${range.end}/${file.sizeBytes}`);
    const body = c.req.method === 'HEAD' || length === 0 ? null : (Readable.toWeb(file.read(range)) as ReadableStream<Uint8Array>);
    return respond(c, body, range ? 206 : 200, file.mime) as never;
  });
  return router;
}

/** An attachment named as uploaded: an ASCII fallback, and the exact name per RFC 6266 / RFC 8187. */
function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
