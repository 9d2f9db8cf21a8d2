import type { Harness } from './harness';

/** One route of the app, as the fuzz and security suites see it. */
export interface RouteInfo {
  method: string;
  /** Hono form: `/v1/environments/:name/origins`. */
  path: string;
  pathParams: string[];
  /** Query parameter names from the OpenAPI document (none for routes outside it). */
  queryParams: string[];
  /** Security schemes the OpenAPI document lists (`secretKey`, `publicKey`, `sessionToken`). */
  security: string[];
}

/**
 * Every concrete route of the app, from the router itself (so routes outside the OpenAPI document count
 * too), enriched with the document's query parameters and security. Routes added later are picked up.
 */
export async function listRoutes(h: Harness): Promise<RouteInfo[]> {
  const doc = (await (await h.app.request('/v1/openapi.json')).json()) as {
    paths: Record<
      string,
      Record<string, { parameters?: { in: string; name: string }[]; security?: Record<string, string[]>[]; responses?: Record<string, { content?: object }> }>
    >;
  };
  const seen = new Map<string, RouteInfo>();
  for (const route of h.app.routes) {
    if (route.method === 'ALL' || route.path.includes('*')) continue;
    const id = `${route.method} ${route.path}`;
    if (seen.has(id)) continue;
    const operation = doc.paths[route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[route.method.toLowerCase()];
    // A Server-Sent Events stream never ends, so suites that read whole bodies cannot include it; it takes no
    // path, query or body input, and test/http/theme-events.test.ts checks its credentials, CORS and headers.
    if (operation?.responses?.['200']?.content && 'text/event-stream' in operation.responses['200'].content) continue;
    seen.set(id, {
      method: route.method,
      path: route.path,
      pathParams: [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!),
      queryParams: (operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      security: [...new Set((operation?.security ?? []).flatMap((entry) => Object.keys(entry)))],
    });
  }
  return [...seen.values()];
}

/** The route's path with each parameter replaced by `value(name)`, URL-encoded. */
export function fillPath(route: RouteInfo, value: (name: string) => string): string {
  return route.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(value(name)));
}

/** Every property name the OpenAPI document mentions (request and response members), for generated bodies. */
export async function documentPropertyNames(h: Harness): Promise<string[]> {
  const doc = (await (await h.app.request('/v1/openapi.json')).json()) as unknown;
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && typeof value === 'object' && value !== null) Object.keys(value).forEach((name) => names.add(name));
      walk(value);
    }
  };
  walk(doc);
  return [...names].sort();
}
