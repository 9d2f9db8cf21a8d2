import { Hono } from 'hono';
import { embedScriptLoader, siblingEmbedSource } from '../embed-script';
import type { AppDeps, AppEnv } from '../env';
import { noneMatchHits } from '../etag';
import { respond, setHeader } from '../respond';

/**
 * The reference importer script, outside /v1 and without credentials (any page may load it with a classic
 * `<script src>`, which needs no CORS allowance; CORP lets pages that require it embed the script). A URL
 * with the current `?v=` is immutable; without it the script is revalidated (ETag) on every load.
 */
export function embedRoutes(deps: AppDeps) {
  const router = new Hono<AppEnv>();
  const script = embedScriptLoader(deps.embedSource ?? siblingEmbedSource());
  router.get('/embed/importer.js', (c) => {
    const { text, etag, version } = script();
    setHeader(c, 'Content-Type', 'text/javascript; charset=utf-8');
    setHeader(c, 'ETag', etag);
    setHeader(c, 'Cache-Control', c.req.query('v') === version ? 'public, max-age=31536000, immutable' : 'public, no-cache');
    setHeader(c, 'Cross-Origin-Resource-Policy', 'cross-origin');
    if (noneMatchHits(c.req.header('If-None-Match'), etag)) return respond(c, null, 304);
    return respond(c, text, 200);
  });
  return router;
}
