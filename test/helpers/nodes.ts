import { loadConfig, type RawConfig } from '../../src/config/config';
import type { Clock } from '../../src/core/clock';
import { openDatabase } from '../../src/db/sqlite/open-database';
import { createSqliteStore } from '../../src/db/sqlite/store';
import type { ServiceContext } from '../../src/services/context';
import { createServiceContext } from '../../src/services/create-context';
import type { Harness } from './harness';

export interface Node {
  ctx: ServiceContext;
  close(): void;
}

/**
 * Another node on the harness's database: its own connection, store (a fresh node id) and service context,
 * as a second `importd serve` would have. Close it before the harness.
 */
export async function joinNode(h: Harness, options: { clock?: Clock; config?: Partial<RawConfig> } = {}): Promise<Node> {
  const storage = openDatabase(h.dbPath, { create: false });
  const ctx = await createServiceContext(createSqliteStore(storage), loadConfig({}, { IMPORTD_DB: h.dbPath, ...options.config }), options.clock);
  return {
    ctx,
    close() {
      void ctx.parsePool.close();
      void ctx.store.notices.close();
      storage.close();
    },
  };
}
