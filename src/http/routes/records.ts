import { z } from '@hono/zod-openapi';
import { exportRecords, ExportRecordsQuery, listRecords, ListRecordsQuery, RecordPage } from '../../services/datasets';
import { nodeBindings, type AppDeps } from '../env';
import { createRouter, defineRoute } from '../route';
import { errorResponses, jsonResponse } from '../schemas';
import { respond, respondJson, setHeader } from '../respond';
import { pullStream } from '../stream';

const TemplateId = z.object({ id: z.string().max(100).openapi({ description: 'template id (UUIDv7)' }) });

/** A keyed template's dataset (docs/templates.md, "Keyed templates"): its records, a page or the whole file. */
export function recordRoutes(deps: AppDeps) {
  const { ctx } = deps;
  const router = createRouter();

  const list = defineRoute(deps, 'secret', {
    method: 'get',
    path: '/templates/{id}/records',
    tags: ['Templates'],
    operationId: 'listTemplateRecords',
    description:
      "Secret Key. One keyset page of a keyed template's dataset in an environment (the key's own by default), by key, or the record of one `key`; each with the import, time and end-user of its last write.",
    summary: "A page of a keyed template's current records (its dataset), keyset-paginated",
    request: { params: TemplateId, query: ListRecordsQuery },
    responses: { 200: jsonResponse(RecordPage, 'A page of records'), ...errorResponses(400, 404) },
  });
  router.openapi(list, async (c) => {
    const { accountId, environmentId } = c.var.caller.principal;
    return respondJson(c, await listRecords(ctx, accountId, c.req.valid('param').id, c.req.query(), environmentId), 200);
  });

  const exported = defineRoute(deps, 'secret', {
    method: 'get',
    path: '/templates/{id}/records/export',
    tags: ['Templates'],
    operationId: 'exportTemplateRecords',
    description: "Secret Key. Streams every record of a keyed template's dataset in key order: CSV (header row = the template's fields), NDJSON or a JSON array.",
    summary: "A keyed template's whole dataset as a streamed CSV, NDJSON or JSON file",
    request: { params: TemplateId, query: ExportRecordsQuery },
    responses: {
      200: {
        description: 'The records, streamed in key order',
        content: { 'text/csv': { schema: z.string() }, 'application/x-ndjson': { schema: z.string() }, 'application/json': { schema: z.array(z.record(z.string(), z.unknown())) } },
      },
      ...errorResponses(400, 404),
    },
  });
  router.openapi(exported, async (c) => {
    const { accountId, environmentId } = c.var.caller.principal;
    const file = await exportRecords(ctx, accountId, c.req.valid('param').id, c.req.query(), environmentId);
    setHeader(c, 'Content-Disposition', `attachment; filename="${file.fileName}"`);
    if (c.req.method === 'HEAD') {
      await file.pieces.return();
      return respond(c, null, 200, file.contentType);
    }
    const { outgoing } = nodeBindings(c);
    return respond(c, pullStream(file.pieces, { sent: deps.metrics?.exported, stalled: () => outgoing?.destroy() }), 200, file.contentType);
  });

  return router;
}
