import type { Logger } from '../core/logger';
import type { Caller } from '../services/auth';
import type { ServiceContext } from '../services/context';

/** What the HTTP adapter is built from. */
export interface AppDeps {
  ctx: ServiceContext;
  logger: Logger;
}

/** Hono context variables set by the middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    caller: Caller;
  };
}
