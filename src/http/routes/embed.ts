import { Hono } from 'hono';
import { embedScriptLoader, siblingEmbedSource } from '../embed-script';
import type { AppDeps, AppEnv } from '../env';
import { noneMatchHits } from '../etag';

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
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('ETag', etag);
    c.header('Cache-Control', c.req.query('v') === version ? 'public, max-age=31536000, immutable' : 'public, no-cache');
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    if (noneMatchHits(c.req.header('If-None-Match'), etag)) return c.body(null, 304);
    return c.body(text, 200);
  });
  return router;
}
