import type { Config } from '../config/config';
import { systemClock, type Clock } from '../core/clock';
import type { Storage } from '../db/open-database';
import { ensureDefaultAccount } from './accounts';
import { loadSessionSecret } from './auth';
import type { ServiceContext } from './context';
import { ParsePool, siblingWorkerScript, type WorkerScript } from './imports/parse-pool';
import { createLlmAnswerCache } from './mapping/llm-resolver';
import { MappingWorkLimiter } from './mapping/work-limiter';

/**
 * Builds the service context over an open, migrated database. `parseWorker` is where the parse worker's code
 * comes from (the executable passes its embedded source; elsewhere the file beside the module is used).
 */
export function createServiceContext(
  storage: Storage,
  config: Config,
  clock: Clock = systemClock,
  parseWorker: WorkerScript = siblingWorkerScript(),
): ServiceContext {
  const ctx: ServiceContext = {
    db: storage.db,
    sqlite: storage.sqlite,
    clock,
    config,
    sessionSecret: loadSessionSecret(storage.db, config.sessionSecret),
    keyTouchedAt: new Map(),
    parsePool: new ParsePool(parseWorker, config.limits, Math.max(512, Math.ceil((6 * config.maxBodyBytes) / 1024 ** 2))),
    mappingWork: new MappingWorkLimiter(config.mapHeadersConcurrency),
  };
  if (config.llm && config.llm.cacheEntries > 0) ctx.llmAnswers = createLlmAnswerCache(config.llm.cacheEntries);
  ensureDefaultAccount(ctx);
  return ctx;
}
