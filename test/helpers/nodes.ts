import { loadConfig, type RawConfig } from '../../src/config/config';
import type { Clock } from '../../src/core/clock';
import { openStore } from '../../src/db/open-store';
import type { ServiceContext } from '../../src/services/context';
import { createServiceContext } from '../../src/services/create-context';
import type { Harness } from './harness';

export interface Node {
  ctx: ServiceContext;
  close(): Promise<void>;
}

/**
 * Another node on the harness's database (either engine): its own connection, store (a fresh node id) and
 * service context, as a second `importd serve` would have. Close it before the harness.
 */
export async function joinNode(h: Harness, options: { clock?: Clock; config?: Partial<RawConfig> } = {}): Promise<Node> {
  const opened = await openStore(h.dbPath, { create: false });
  const ctx = await createServiceContext(opened.store, loadConfig({}, { IMPORTD_DB: h.dbPath, ...options.config }), options.clock);
  return {
    ctx,
    async close() {
      void ctx.parsePool.close();
      await opened.close();
    },
  };
}
