import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { originAllowedByAnyKey, verifySession, type Caller } from '../../services/auth';
import type { ServiceContext } from '../../services/context';
import {
  createImport,
  CreateImportBody,
  DryRunAnswer,
  ExportQuery,
  exportRows,
  getImport,
  getImportErrors,
  ImportDetail,
  ImportErrors,
  ImportListItem,
  ImportPage,
  listImports,
  ListImportsQuery,
  listRows,
  ListRowsQuery,
  RowPage,
  type ImportOrigin,
} from '../../services/imports';
import { listMissing, ListMissingQuery, MissingPage } from '../../services/datasets';
import { isImportBodyType, readImportBody } from '../body';
import { clientAddress } from '../client-address';
import { authenticateRequest, SESSION_HEADER, sessionFromBody } from '../credentials';
import { nodeBindings, type AppDeps, type AppEnv } from '../env';
import { createRouter, defineRoute } from '../route';
import { errorResponses, jsonBody, jsonResponse } from '../schemas';
import { pullStream } from '../stream';
import { detailJson, importPageJson, rowPageJson } from '../import-json';
import { jsonText, respond, respondJson, setHeader } from '../respond';

const ImportParams = z.object({ importId: z.string().max(100) });

export function importRoutes(deps: AppDeps) {
  const { ctx } = deps;
  const router = createRouter();

  // POST /imports reads its body itself (readImportBody): a zod validator would parse the whole body at once
  // and run over every row; the rows are parsed in slices and checked by the service's own loop instead.
  // The route is still documented with its full body schema.
  const { middleware, ...create } = defineRoute(deps, 'secret-or-session', {
    method: 'post',
    path: '/imports',
    tags: ['Imports'],
    operationId: 'createImport',
    description:
      'Secret Key, or Public Key from an allowed Origin with a session token. Stores the rows atomically (invisible until complete); resolves the template by id, then key, else creates one from `originalSchema`. `application/x-ndjson` streams a first line of meta, then one row a line.',
    summary: 'Store an import: its rows, meta and original schema (template resolved or created)',
    request: {
      body: {
        required: true,
        content: {
          ...jsonBody(CreateImportBody).content,
          'application/x-ndjson': {
            schema: z.string().meta({
              description: 'Streamed import: a first line { "meta": ..., "originalSchema": ... }, then one row object a line',
            }),
          },
        },
      },
    },
    responses: {
      200: jsonResponse(DryRunAnswer, 'With `dryRun: true`: what the import would change; nothing stored'),
      201: jsonResponse(ImportListItem, 'The import (create shape)'),
      ...errorResponses(400, 413, 415, 422),
    },
  }, {
    // The body is read before its key is known only where meta.publicKey can be valid at all: an import body
    // from an origin some Public Key allows. Anything else is refused before a byte of the body is read.
    keyInBody: async (c) =>
      isImportBodyType(c.req.header('Content-Type')) && (await originAllowedByAnyKey(ctx, c.req.header('Origin'))) !== undefined,
  });
  router.openAPIRegistry.registerPath(create);
  router.post('/imports', ...middleware, async (c) => {
    const body = await readImportBody(c, ctx);
    let origin: ImportOrigin;
    try {
      origin = await importOrigin(ctx, c, body.meta);
    } catch (error) {
      // A refused session: the parse thread working on the body stops (else it would wait for a reader forever).
      if ('discard' in body.rows) await body.rows.discard?.();
      throw error;
    }
    const created = await createImport(ctx, origin, body);
    // A dry run stored nothing: 200, and no ingestion counted.
    if ('dryRun' in created) return respondJson(c, created, 200);
    deps.metrics?.ingested(created.rowCount, body.bytes.read());
    return respondJson(c, created, 201);
  });

  const list = defineRoute(deps, 'secret', {
    method: 'get',
    path: '/imports',
    tags: ['Imports'],
    operationId: 'listImports',
    description:
      "Secret Key. One keyset page of the account's imports, filtered by template, creation dates, end-user e-mail (substring) or environment; pass `nextCursor` back as `cursor` for the next page.",
    summary: "List the account's imports (keyset pagination, newest first by default)",
    request: { query: ListImportsQuery },
    responses: { 200: jsonResponse(ImportPage, 'A page of imports'), ...errorResponses(400) },
  });
  // Every route below is validated by the schemas it registers (400 before any read); the services parse their
  // query again, as the CLI calls them with its flags. The read routes answer JSON text with the stored JSON
  // spliced in (import-json.ts); the documented shapes are the same.
  router.openapi(list, async (c) => jsonText(c, importPageJson(await listImports(ctx, c.var.caller.principal.accountId, c.req.query()))));

  const detail = defineRoute(deps, 'secret', {
    method: 'get',
    path: '/imports/{importId}',
    tags: ['Imports'],
    operationId: 'getImport',
    description:
      'Secret Key. The import with its meta, original schema, cell statistics per field and the end-user data it was stored with.',
    summary: 'One import in detail, with cell statistics and compliance data',
    request: { params: ImportParams },
    responses: { 200: jsonResponse(ImportDetail, 'The import'), ...errorResponses(404) },
  });
  router.openapi(detail, async (c) => jsonText(c, detailJson(await getImport(ctx, c.var.caller.principal.accountId, c.req.valid('param').importId))));

  const rows = defineRoute(deps, 'secret', {
    method: 'get',
    path: '/imports/{importId}/rows',
    tags: ['Imports'],
    operationId: 'listImportRows',
    description:
      'Secret Key. Up to 100 rows in rowIndex order per page, each exactly as stored; for all rows of a large import use the export.',
    summary: "A page of the import's rows by rowIndex (use the export for 10 000+ rows)",
    request: { params: ImportParams, query: ListRowsQuery },
    responses: { 200: jsonResponse(RowPage, 'A page of rows'), ...errorResponses(400, 404) },
  });
  router.openapi(rows, async (c) =>
    jsonText(c, rowPageJson(await listRows(ctx, c.var.caller.principal.accountId, c.req.valid('param').importId, c.req.query()))),
  );

  const errors = defineRoute(deps, 'secret', {
    method: 'get',
    path: '/imports/{importId}/errors',
    tags: ['Imports'],
    operationId: 'getImportErrors',
    description:
      "Secret Key. The import's invalid cells (a template with rules, onInvalid `keep` or `discard`) by field and code, with counts and the first 3 (rowIndex, value) of each; computed when the import was written, so its cost does not grow with the import.",
    summary: "A summary of the import's invalid cells by field and code",
    request: { params: ImportParams },
    responses: { 200: jsonResponse(ImportErrors, 'The summary'), ...errorResponses(404) },
  });
  router.openapi(errors, async (c) => jsonText(c, await getImportErrors(ctx, c.var.caller.principal.accountId, c.req.valid('param').importId)));

  const exported = defineRoute(deps, 'secret', {
    method: 'get',
    path: '/imports/{importId}/export',
    tags: ['Imports'],
    operationId: 'exportImport',
    description:
      "Secret Key. Streams every row: CSV (header row = the template's fields, then other keys), NDJSON or a JSON array; `safe=true` guards CSV cells against spreadsheet formulas.",
    summary: 'All rows of the import as a streamed CSV, NDJSON or JSON file',
    request: { params: ImportParams, query: ExportQuery },
    responses: {
      200: {
        description: 'The rows, streamed in row order',
        content: {
          'text/csv': { schema: z.string() },
          'application/x-ndjson': { schema: z.string() },
          'application/json': { schema: z.array(z.record(z.string(), z.unknown())) },
        },
      },
      ...errorResponses(400, 404),
    },
  });
  router.openapi(exported, async (c) => {
    const file = await exportRows(ctx, c.var.caller.principal.accountId, c.req.valid('param').importId, c.req.query());
    setHeader(c, 'Content-Disposition', `attachment; filename="${file.fileName}"`);
    // HEAD answers the headers only: not one row is read or encoded, and the export's slot is given back.
    if (c.req.method === 'HEAD') {
      await file.pieces.return();
      return respond(c, null, 200, file.contentType);
    }
    // A client that stops reading is dropped (stream.ts): its socket, the bytes buffered in it and the drain.
    const { outgoing } = nodeBindings(c);
    const stream = pullStream(file.pieces, { sent: deps.metrics?.exported, stalled: () => outgoing?.destroy() });
    return respond(c, stream, 200, file.contentType);
  });

  const missing = defineRoute(deps, 'secret', {
    method: 'get',
    path: '/imports/{importId}/missing',
    tags: ['Imports'],
    operationId: 'listImportMissingKeys',
    description:
      "Secret Key. The keys of a keyed template's dataset the import did not carry, by key: those a `replace` import removed, or for an `upsert` the keys the dataset holds now that the import did not carry (`total`: the count when it was applied).",
    summary: 'A page of the dataset keys the import did not carry (keyed templates)',
    request: { params: ImportParams, query: ListMissingQuery },
    responses: { 200: jsonResponse(MissingPage, 'A page of keys'), ...errorResponses(400, 404) },
  });
  router.openapi(missing, async (c) => respondJson(c, await listMissing(ctx, c.var.caller.principal.accountId, c.req.valid('param').importId, c.req.query()), 200));

  return router;
}

/**
 * Who the import comes from. Without a key header the Public Key is `meta.publicKey`. With a Public Key the
 * session token is required (header, else `meta.sessionToken`); with a Secret Key one is optional and, when
 * sent, verified the same way. End-user fields come only from the verified session.
 */
async function importOrigin(ctx: ServiceContext, c: Context<AppEnv>, meta: unknown): Promise<ImportOrigin> {
  const members = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : {};
  const bodyToken = members.sessionToken;
  const bodyKey = typeof members.publicKey === 'string' ? { value: members.publicKey.trim(), from: 'public-key' as const } : undefined;
  let caller: Caller = (c.get('caller') as Caller | undefined) ?? (await authenticateRequest(ctx, c, 'secret-or-session', bodyKey));
  if (caller.principal.kind === 'public') caller = await sessionFromBody(ctx, caller, bodyToken);
  else {
    const token = c.req.header(SESSION_HEADER) ?? bodyToken;
    if (typeof token === 'string') caller = { ...caller, session: await verifySession(ctx, token, caller.principal) };
  }
  return {
    accountId: caller.principal.accountId,
    environmentId: caller.principal.environmentId,
    importedFrom: caller.origin ?? 'api',
    session: caller.session,
    clientAddress: clientAddress(c, ctx.config.trustedProxies),
  };
}
