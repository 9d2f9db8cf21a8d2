import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { Logger } from '../core/logger';
import type { ImportdMetrics } from './metrics/registry';
import type { Caller } from '../services/auth';
import type { ServiceContext } from '../services/context';
import type { EmbedSource } from './embed-script';

/** What the HTTP adapter is built from. */
export interface AppDeps {
  ctx: ServiceContext;
  logger: Logger;
  /** Where GET /embed/importer.js reads the browser importer (default: build/importer.js). */
  embedSource?: EmbedSource;
  /** Prometheus metrics, when the server exposes them (IMPORTD_METRICS_ADDR); nothing is counted otherwise. */
  metrics?: ImportdMetrics;
}

/** The Node request and response under a Hono context; absent in process (`app.request()` in tests). */
export function nodeBindings(c: Context): Partial<HttpBindings> {
  return (c.env as Partial<HttpBindings> | undefined) ?? {};
}

/** Hono context variables set by the middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    caller: Caller;
  };
}
