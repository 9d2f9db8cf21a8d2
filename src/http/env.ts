import type { Logger } from '../core/logger';
import type { ImportdMetrics } from './metrics/registry';
import type { Caller } from '../services/auth';
import type { ServiceContext } from '../services/context';

/** What the HTTP adapter is built from. */
export interface AppDeps {
  ctx: ServiceContext;
  logger: Logger;
  /** Prometheus metrics, when the server exposes them (IMPORTD_METRICS_ADDR); nothing is counted otherwise. */
  metrics?: ImportdMetrics;
}

/** Hono context variables set by the middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    caller: Caller;
  };
}
