import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { newRequestId } from '../core/ids';
import { lingerBeforeClose } from './linger';
import { NDJSON_TYPE } from './body';
import { nodeBindings, type AppDeps, type AppEnv } from './env';
import { errorResponse, toServiceError } from './errors';
import { noteRequestError } from '../services/health';
import { bodyLimit } from './middleware/body-limit';
import { corsOnEarlyErrors, corsPreflight } from './middleware/cors-preflight';
import { allowedMethodsOf, notFoundOrNotAllowed } from './middleware/method-not-allowed';
import { logsRequests, requestLog } from './middleware/request-log';
import { CLIENT_CLOSED, requestMetrics } from './metrics/request-metrics';
import { finishHeaders, setHeader, startHeaders } from './respond';
import { complianceRoutes } from './routes/compliance';
import { embedRoutes } from './routes/embed';
import { environmentRoutes } from './routes/environments';
import { healthRoutes } from './routes/health';
import { homeRoutes } from './routes/home';
import { importFileRoutes } from './routes/import-file';
import { importRoutes } from './routes/imports';
import { mappingRoutes } from './routes/mapping';
import { sessionRoutes } from './routes/sessions';
import { statsRoutes } from './routes/stats';
import { templateRoutes } from './routes/templates';
import { recordRoutes } from './routes/records';
import { themeRoutes } from './routes/themes';
import { uploadRoutes } from './routes/uploads';
import { webhookRoutes } from './routes/webhooks';
import { importReviewRoutes } from './routes/import-review';
import { registerWebhookEvents } from './webhook-events-doc';
import { VERSION } from '../version';
import { OPENAPI_INFO, OPENAPI_TAGS } from './openapi-tags';

/** The HTTP adapter: middleware, every /v1 resource, the OpenAPI document and health checks. */
export function createApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();

  // Every layer costs each request an async call through Hono's compose, so the global work is folded into
  // as few as possible. Our own ids only (a client-chosen id could collide with another request's in the logs).
  app.use(async (c, next) => {
    const id = newRequestId();
    c.set('requestId', id);
    startHeaders(c, id);
    await next();
    finishHeaders(c);
    // Answered before the client finished sending (a body refused midway): the rest of it is not read, so
    // the connection cannot carry another request; saying so keeps clients from reusing it, and the rest is
    // dropped before the socket closes, so that a client still sending is not reset (linger.ts).
    const { incoming } = nodeBindings(c);
    if (incoming && !incoming.complete) {
      c.res.headers.set('Connection', 'close');
      lingerBeforeClose(incoming);
    }
  });
  // At a level above info the per-request line would be dropped anyway: no layer at all.
  if (logsRequests(deps.ctx.config.logLevel)) app.use(requestLog(deps.logger));
  if (deps.metrics) app.use(requestMetrics(deps.metrics));
  const { maxBodyBytes, maxJsonBodyBytes, limits } = deps.ctx.config;
  // Every other route parses its body whole on the request thread, so its limit is small (config.ts).
  const limitJsonBody = bodyLimit(maxJsonBodyBytes, 'IMPORTD_MAX_JSON_BODY');
  const limitImportBody = maxBodyBytes <= limits.importBytes ? bodyLimit(maxBodyBytes, 'IMPORTD_MAX_BODY') : bodyLimit(limits.importBytes, 'IMPORTD_MAX_IMPORT_BYTES');
  // A streamed NDJSON import is read line by line in bounded memory and counted as it is read (body.ts).
  const limitBody: MiddlewareHandler<AppEnv> = (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    // tus bodies are streamed to the upload's file and bounded by its Upload-Length (routes/uploads.ts).
    if (c.req.path.startsWith('/v1/uploads')) return next();
    if (method !== 'POST' || c.req.path !== '/v1/imports') return limitJsonBody(c, next);
    return NDJSON_TYPE.test(c.req.header('Content-Type') ?? '') ? next() : limitImportBody(c, next);
  };
  const preflight = corsPreflight(deps.ctx);
  const earlyErrors = corsOnEarlyErrors(deps.ctx);
  const answerError = (error: unknown, c: Context<AppEnv>) => {
    // The client hung up (or Node's request timeout cut it off) before its body arrived: no failure of ours,
    // and nobody reads the answer. 499, nginx's "client closed request", for the log and the metrics.
    const { incoming } = nodeBindings(c);
    if (incoming?.destroyed && !incoming.complete) return new Response(null, { status: CLIENT_CLOSED });
    const answer = toServiceError(error, deps.logger, c.var.requestId);
    noteRequestError(deps.ctx, answer);
    return errorResponse(c, answer);
  };
  app.use('/v1/*', (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    return earlyErrors(c, async () => {
      // Hono answers an error where its layer threw; a refused body must be answered here, inside this
      // layer, for the early-error CORS headers to be added to it.
      try {
        await limitBody(c, next);
      } catch (error) {
        c.res = answerError(error, c);
      }
    });
  });

  app.route('/', homeRoutes());
  app.route('/', healthRoutes(deps));
  app.route('/', embedRoutes(deps));
  app.route('/v1', environmentRoutes(deps));
  app.route('/v1', sessionRoutes(deps));
  app.route('/v1', templateRoutes(deps));
  app.route('/v1', recordRoutes(deps));
  app.route('/v1', themeRoutes(deps));
  app.route('/v1', statsRoutes(deps));
  app.route('/v1', importRoutes(deps));
  app.route('/v1', importReviewRoutes(deps));
  app.route('/v1', importFileRoutes(deps));
  app.route('/v1', mappingRoutes(deps));
  app.route('/v1', complianceRoutes(deps));
  app.route('/v1', webhookRoutes(deps));
  app.route('/v1', uploadRoutes(deps));

  registerWebhookEvents(app.openAPIRegistry);
  app.openAPIRegistry.registerComponent('securitySchemes', 'secretKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Secret Key (sk_...) for server-to-server calls',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'publicKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Public-Key',
    description: 'Public Key (pk_...), also accepted as a bearer token; the Origin must be allowed',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'sessionToken', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Session-Token',
    description: 'End-user session token from POST /v1/sessions',
  });
  app.doc31('/v1/openapi.json', (c) => ({
    openapi: '3.1.0',
    info: { ...OPENAPI_INFO, version: VERSION },
    // The origin the document was fetched from: the server a generated client should call.
    servers: [{ url: new URL(c.req.url).origin, description: 'this importd server' }],
    tags: Object.entries(OPENAPI_TAGS).map(([name, description]) => ({ name, description })),
  }));

  const allowedMethods = allowedMethodsOf(app);
  app.notFound((c) => {
    const allowed = allowedMethods(c.req.path);
    if (allowed.length > 0) setHeader(c, 'Allow', allowed.join(', '));
    return errorResponse(c, notFoundOrNotAllowed(allowed));
  });
  app.onError(answerError);
  return app;
}
