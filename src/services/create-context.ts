import type { Config } from '../config/config';
import { systemClock, type Clock } from '../core/clock';
import type { Store } from '../db/store';
import { ensureDefaultAccount } from './accounts';
import { loadSessionSecret } from './auth';
import type { ServiceContext } from './context';
import type { WorkerScript } from '../core/worker-script';
import { ParsePool, parseWorkerScript } from './imports/parse-pool';
import { createLlmAnswerCache } from './mapping/llm-resolver';
import { findTheme } from './themes/themes';
import { ThemeEvents } from './themes/theme-events';
import { MappingWorkLimiter } from './mapping/work-limiter';
import { ExportSlots } from './imports/export-slots';
import { WebhookWake } from './webhooks/webhook-wake';

/**
 * Builds the service context over an open, migrated store. `parseWorker` is where the parse worker's code
 * comes from (the executable passes its embedded source; elsewhere the file beside the module is used).
 */
export async function createServiceContext(
  store: Store,
  config: Config,
  clock: Clock = systemClock,
  parseWorker: WorkerScript = parseWorkerScript(),
): Promise<ServiceContext> {
  const ctx: ServiceContext = {
    store,
    clock,
    config,
    sessionSecret: await loadSessionSecret(store, config.sessionSecret),
    keyTouchedAt: new Map(),
    parsePool: new ParsePool(parseWorker, config.limits, Math.max(512, Math.ceil((6 * config.maxBodyBytes) / 1024 ** 2)), store.rows.textForm),
    themeEvents: new ThemeEvents(async (accountId) => await findTheme(store, accountId), store.notices),
    mappingWork: new MappingWorkLimiter(config.mapHeadersConcurrency),
    exportSlots: new ExportSlots(config.exportsPerAccount),
    webhookWake: new WebhookWake(),
  };
  if (config.llm && config.llm.cacheEntries > 0) ctx.llmAnswers = createLlmAnswerCache(config.llm.cacheEntries);
  await ensureDefaultAccount(ctx);
  return ctx;
}
