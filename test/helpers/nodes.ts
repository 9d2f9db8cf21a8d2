import { loadConfig, type RawConfig } from '../../src/config/config';
import type { Clock } from '../../src/core/clock';
import { openStore } from '../../src/db/open-store';
import type { ServiceContext } from '../../src/services/context';
import { createServiceContext } from '../../src/services/create-context';
import { after, before } from 'node:test';
import { createHarness, createTestEnvironment, type Harness, type HarnessOptions, type TestEnvironment } from './harness';
import { startServe, type ServerProcess } from './process';
import { testEngine } from './test-database';

/** A suite's options that skip it on SQLite, where one database file is served by one node. */
export const onPostgres = { skip: testEngine === 'postgres' ? false : 'several nodes need PostgreSQL (npm run test:pg)' } as const;

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

export interface ServeNodes {
  h: Harness;
  env: TestEnvironment;
  nodes: ServerProcess[];
}

/**
 * `count` real `importd serve` processes (default 2) on the harness's database, as hooks of the suite it is
 * called in: `before` opens a harness and its default environment, runs `setUp` (templates the nodes will
 * find), then starts the nodes with `settings`; `after` stops the nodes still running, then closes the harness.
 * The members of the object answered are set by that hook: read them only in hooks and tests.
 */
export function useServeNodes(options: { harness?: HarnessOptions; settings?: Record<string, string>; count?: number; setUp?: (h: Harness, env: TestEnvironment) => Promise<void> } = {}): ServeNodes {
  const suite = { nodes: [] } as unknown as ServeNodes;
  before(async () => {
    suite.h = await createHarness(options.harness);
    suite.env = await createTestEnvironment(suite.h);
    await options.setUp?.(suite.h, suite.env);
    suite.nodes = await Promise.all(Array.from({ length: options.count ?? 2 }, () => startServe(suite.h.dbPath, options.settings)));
  });
  after(async () => {
    await Promise.all(suite.nodes.map((node) => (node.child.exitCode === null ? node.stop() : undefined)));
    await suite.h?.close();
  });
  return suite;
}

/** POST /v1/imports on a node with this key: `body` is sent as is when it is text, else as JSON. */
export function postImportTo(node: ServerProcess, key: string, body: string | object): Promise<Response> {
  return fetch(`${node.url}/v1/imports`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
