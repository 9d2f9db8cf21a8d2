import { Hono } from 'hono';
import { VERSION } from '../../version';
import type { AppEnv } from '../env';
import { respond, respondJson, setHeader } from '../respond';

/** Where a person (or a script) who opens the server's root goes next. */
const HOME = {
  name: 'importd',
  version: VERSION,
  openapi: '/v1/openapi.json',
  importer: '/embed/importer.js',
  demo: 'importd embed demo --env NAME --template KEY',
  docs: 'docs/api.md, docs/cli.md and docs/embedding.md of the importd release',
  health: '/healthz',
};

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>importd</title>
<style>body { font: 15px system-ui, sans-serif; margin: 0 auto; padding: 16px; max-width: 640px; } code { font-size: 14px; }</style>
</head><body>
<h1>importd ${VERSION}</h1>
<p>The self-hosted backend of a spreadsheet-import SDK. This server answers its HTTP API under <code>/v1</code>.</p>
<ul>
<li>API reference: <a href="${HOME.openapi}">${HOME.openapi}</a> (OpenAPI 3.1; load it into any OpenAPI viewer or client generator)</li>
<li>Documentation: ${HOME.docs}</li>
<li>Importer: <a href="${HOME.importer}">${HOME.importer}</a>; try it on a local page with <code>${HOME.demo}</code></li>
<li>Health: <a href="${HOME.health}">${HOME.health}</a></li>
</ul>
</body></html>
`;

/**
 * `GET /`, without credentials: a small page pointing to the API reference, the docs and the importer demo,
 * or the same as JSON for a client that asks for JSON (Accept: application/json, without text/html).
 */
export function homeRoutes() {
  const router = new Hono<AppEnv>();
  router.get('/', (c) => {
    setHeader(c, 'Vary', 'Accept', { append: true });
    const accept = c.req.header('Accept') ?? '';
    if (/application\/json/i.test(accept) && !/text\/html/i.test(accept)) return respondJson(c, HOME, 200);
    // Nothing on the page runs or loads: a policy that says so costs nothing.
    setHeader(c, 'Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    return respond(c, PAGE, 200, 'text/html; charset=utf-8');
  });
  return router;
}
