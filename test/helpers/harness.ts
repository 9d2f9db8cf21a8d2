import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type RawConfig } from '../../src/config/config';
import type { Clock } from '../../src/core/clock';
import { createLogger } from '../../src/core/logger';
import { openPostgres } from '../../src/db/postgres/open-database';
import { createPostgresStore } from '../../src/db/postgres/store';
import { openDatabase, type Storage } from '../../src/db/sqlite/open-database';
import { createSqliteStore } from '../../src/db/sqlite/store';
import type { Store } from '../../src/db/store';
import { createApp } from '../../src/http/app';
import { createAccount } from '../../src/services/accounts';
import type { ServiceContext } from '../../src/services/context';
import { createServiceContext } from '../../src/services/create-context';
import { createEnvironment } from '../../src/services/environments';
import { issueSession } from '../../src/services/sessions';
import { resolveAccount } from '../../src/services/accounts';
import { resolveEnvironment } from '../../src/services/environments';
import { createPgTestDatabase, pgSql, sqliteSql, testEngine } from './test-database';

/** A clock tests can move: `clock.advance(ms)`. */
export function testClock(start = '2026-01-31T12:00:00.000Z'): Clock & { advance(ms: number): void; set(iso: string): void } {
  let now = new Date(start).getTime();
  const clock = (() => new Date(now)) as Clock & { advance(ms: number): void; set(iso: string): void };
  clock.advance = (ms) => {
    now += ms;
  };
  clock.set = (iso) => {
    now = new Date(iso).getTime();
  };
  return clock;
}

export interface Harness {
  /** A temporary folder for the test's files (the SQLite database lives in it). */
  dir: string;
  /** What `--db` takes for this database: the SQLite file, or the PostgreSQL URL. */
  dbPath: string;
  engine: 'sqlite' | 'postgres';
  /** SQLite's own handles: only for tests about SQLite itself (marked `sqliteOnly`); throws on PostgreSQL. */
  storage: Storage;
  /** Runs raw SQL (`?` placeholders) on either engine and answers the rows (counts as numbers): for assertions on stored state. */
  sql<T = Record<string, any>>(text: string, ...params: unknown[]): Promise<T[]>;
  ctx: ServiceContext;
  app: ReturnType<typeof createApp>;
  logs: string[];
  close(): Promise<void>;
}

/** An engine's store over a fresh test database, with raw SQL access and a way to drop it. */
interface TestStorage {
  dbPath: string;
  store: Store;
  storage?: Storage;
  sql<T>(text: string, params: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  clock?: Clock;
  config?: Partial<RawConfig>;
}

/** A fresh temporary database, service context and in-process app. Call close() in an after hook. */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = mkdtempSync(path.join(tmpdir(), 'importd-test-'));
  const opened = testEngine === 'postgres' ? await openPgTestStorage() : openSqliteTestStorage(path.join(dir, 'importd.db'));
  const config = loadConfig({}, { IMPORTD_DB: opened.dbPath, IMPORTD_FILES_DIR: path.join(dir, 'files'), ...options.config });
  const ctx = await createServiceContext(opened.store, config, options.clock);
  const logs: string[] = [];
  const app = createApp({ ctx, logger: createLogger('info', (line) => logs.push(line)) });
  return {
    dir,
    dbPath: opened.dbPath,
    engine: testEngine,
    get storage(): Storage {
      if (!opened.storage) throw new Error('h.storage is SQLite only: mark the test sqliteOnly, or use h.sql');
      return opened.storage;
    },
    sql: (text, ...params) => opened.sql(text, params),
    ctx,
    app,
    logs,
    async close() {
      void ctx.parsePool.close();
      await ctx.store.notices.close();
      await opened.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function openSqliteTestStorage(dbPath: string): TestStorage {
  const storage = openDatabase(dbPath);
  return {
    dbPath,
    storage,
    store: createSqliteStore(storage),
    sql: async <T>(text: string, params: unknown[]) => sqliteSql<T>(storage.sqlite, text, params),
    close: async () => storage.close(),
  };
}

async function openPgTestStorage(): Promise<TestStorage> {
  const database = await createPgTestDatabase();
  const storage = await openPostgres(database.url);
  return {
    dbPath: database.url,
    store: createPostgresStore(storage),
    sql: <T>(text: string, params: unknown[]) => pgSql<T>(storage.pool, text, params),
    close: async () => {
      await storage.close();
      await database.drop();
    },
  };
}

export interface TestEnvironment {
  accountId: string;
  environmentId: string;
  name: string;
  secretKey: string;
  publicKey: string;
  origin: string;
}

export interface TestEnvironmentOptions {
  name?: string;
  account?: string;
  origins?: string[];
  /** Lets its Public Key sessions auto-create templates (off by default, as in the product). */
  autoCreateTemplates?: boolean;
}

/** Creates an environment (in a new account when `account` is given) with one allowed origin. */
export async function createTestEnvironment(h: Harness, options: TestEnvironmentOptions = {}): Promise<TestEnvironment> {
  const account = options.account ? await createAccount(h.ctx, { name: options.account }) : await resolveAccount(h.ctx);
  const origins = options.origins ?? ['https://app.example.com'];
  const name = options.name ?? 'production';
  const created = await createEnvironment(h.ctx, account.id, { name, allowedOrigins: origins, autoCreateTemplates: options.autoCreateTemplates });
  return {
    accountId: account.id,
    environmentId: (await resolveEnvironment(h.ctx, account.id, name)).id,
    name,
    secretKey: created.secretKey.key,
    publicKey: created.publicKey.key,
    origin: created.publicKey.allowedOrigins[0] ?? 'https://app.example.com',
  };
}

/** Issues a session token for the environment through the service. */
export async function createTestSession(h: Harness, env: TestEnvironment, input: { endUserId?: string; endUserEmail?: string; expiresIn?: number } = {}) {
  return await issueSession(h.ctx, env, { endUserId: 'end-user-1', ...input });
}

export interface RequestOptions {
  key?: string;
  origin?: string;
  session?: string;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** The client's address, as node-server's socket would give it (in process there is no socket, so none by default). */
  address?: string;
}

/** Sends a request to the in-process app. JSON bodies get `Content-Type: application/json` unless told otherwise. */
export async function call(h: Harness, method: string, url: string, options: RequestOptions = {}): Promise<Response> {
  const bindings = options.address === undefined ? undefined : { incoming: { complete: true, socket: { remoteAddress: options.address } } };
  return h.app.request(url, requestInit(method, options), bindings);
}

/** The same request as `call`, sent to a server listening at `origin` (`address` is the socket's own). */
export async function callServer(origin: string, method: string, url: string, options: RequestOptions = {}): Promise<Response> {
  return fetch(new URL(url, origin), requestInit(method, options));
}

function requestInit(method: string, options: RequestOptions): RequestInit {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  if (options.origin) headers.Origin = options.origin;
  if (options.session) headers['X-Session-Token'] = options.session;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['Content-Type'] = options.contentType ?? 'application/json';
  return { method, headers, body };
}

/** Parses a JSON response body. */
export async function json<T = any>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** The limits of a configuration with every default. */
export const DEFAULT_LIMITS = loadConfig({}).limits;
