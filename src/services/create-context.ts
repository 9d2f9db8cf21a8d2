import type { Config } from '../config/config';
import { systemClock, type Clock } from '../core/clock';
import type { Storage } from '../db/open-database';
import { ensureDefaultAccount } from './accounts';
import { loadSessionSecret } from './auth';
import type { ServiceContext } from './context';

/** Builds the service context over an open, migrated database. */
export function createServiceContext(storage: Storage, config: Config, clock: Clock = systemClock): ServiceContext {
  const ctx: ServiceContext = {
    db: storage.db,
    sqlite: storage.sqlite,
    clock,
    config,
    sessionSecret: loadSessionSecret(storage.db, config.sessionSecret),
    keyTouchedAt: new Map(),
  };
  ensureDefaultAccount(ctx);
  return ctx;
}
