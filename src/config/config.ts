import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { isPostgresUrl } from '../core/database-url';

/** Parses sizes such as `64mb`, `512kb`, `1gb` or a plain byte count. */
const byteSize = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i, 'expected a size such as 64mb, 512kb or 1048576')
  .transform((text) => {
    const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(text)!;
    const unit = (match[2] ?? 'b').toLowerCase();
    const factor = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[unit as 'b' | 'kb' | 'mb' | 'gb'];
    return Math.floor(Number(match[1]) * factor);
  })
  .pipe(z.number().int().min(1024, 'must be at least 1kb'));

/** An IP address or a DNS host name; dotted digits that are not an IPv4 address (`256.1.1.1`) are neither. */
const listenHost = z
  .string()
  .min(1)
  .refine(
    (host) => isIP(host) !== 0 || (!/^[\d.]+$/.test(host) && /^(?=.{1,253}$)[a-z\d]([a-z\d-]{0,61}[a-z\d])?(\.[a-z\d]([a-z\d-]{0,61}[a-z\d])?)*$/i.test(host)),
    'expected an IP address (such as 127.0.0.1 or ::) or a host name',
  );

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

/** `host:port` (an IPv6 host in brackets: `[::1]:9464`). */
const listenAddress = z
  .string()
  .trim()
  .regex(/^(?:\[[0-9a-fA-F:.]+\]|[\w.-]+):\d{1,5}$/, 'expected host:port, such as 127.0.0.1:9464')
  .transform((text) => {
    const at = text.lastIndexOf(':');
    return { host: text.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: Number(text.slice(at + 1)) };
  })
  .pipe(z.object({ host: listenHost, port: z.number().int().min(0).max(65535, 'the port must be at most 65535') }));

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** Seconds between delivery attempts, e.g. `5,300,1800`: 1 to 20 waits of 1 s to 7 days each. */
const retrySchedule = z
  .string()
  .trim()
  .regex(/^\d{1,6}(\s*,\s*\d{1,6})*$/, 'expected seconds separated by commas, such as 5,300,1800')
  .transform((text) => text.split(',').map(Number))
  .pipe(z.array(z.number().int().min(1, 'each wait must be at least 1 second').max(604800, 'each wait must be at most 604800 seconds (7 days)')).max(20, 'at most 20 retries'));

/** An address block: its first address and prefix length (a single address is a /32 or /128). */
export type ProxyRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** One entry of IMPORTD_TRUSTED_PROXIES, or undefined when it is neither an IP address nor a CIDR block. */
function proxyRangeOf(entry: string): ProxyRange | undefined {
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const bits = slash < 0 ? undefined : entry.slice(slash + 1);
  // node:net's isIP is strict where ipaddr.js is lenient (`10`, `0x0a.1`, `010.0.0.1` are IPv4 to it).
  if (isIP(address) === 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits))) return undefined;
  let range: ProxyRange;
  try {
    range = bits === undefined ? [ipaddr.parse(address), isIP(address) === 4 ? 32 : 128] : ipaddr.parseCIDR(entry);
  } catch {
    return undefined;
  }
  // Peers are compared as IPv4 when IPv4-mapped (a dual-stack socket's ::ffff:10.0.0.2), so are such blocks.
  const [first, prefix] = range;
  if (first.kind() === 'ipv6' && (first as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) return [(first as ipaddr.IPv6).toIPv4Address(), prefix - 96];
  return range;
}

/** Comma-separated IP addresses and CIDR blocks (IPv4 and IPv6), such as `10.0.0.0/8, 2001:db8::/32`. */
const trustedProxies = z.string().transform((text, ctx) => {
  const ranges: ProxyRange[] = [];
  if (text.trim() === '') return ranges;
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    const range = proxyRangeOf(entry);
    if (!range) {
      ctx.addIssue({ code: 'custom', message: `${JSON.stringify(entry)} is not an IP address or a CIDR block (such as 172.16.0.0/12 or fd00::/8)` });
      return z.NEVER;
    }
    ranges.push(range);
  }
  return ranges;
});

/**
 * Every setting of importd, keyed by the environment variable that sets it. Command-line flags are merged
 * over the environment before parsing, so one schema validates both.
 */
export const ConfigSchema = z.object({
  IMPORTD_DB: z
    .string()
    .min(1)
    // A postgres:// URL must parse as one: a typo is reported here, never taken as a file name.
    .refine((value) => !isPostgresUrl(value) || URL.canParse(value), 'expected a PostgreSQL URL such as postgres://user:password@host:5432/importd')
    .default('./data/importd.db'),
  IMPORTD_HOST: listenHost.default('0.0.0.0'),
  IMPORTD_PORT: z.coerce.number({ error: 'expected a port number' }).int('expected a port number').min(0).max(65535, 'expected a port number up to 65535').default(8080),
  IMPORTD_MAX_BODY: byteSize.default(64 * 1024 ** 2),
  IMPORTD_MAX_JSON_BODY: byteSize.optional(),
  IMPORTD_SESSION_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  IMPORTD_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  IMPORTD_RATE_LIMIT: z.coerce.number().int().min(0).default(6000),
  IMPORTD_ACCOUNT_RATE_LIMIT: z.coerce.number().int().min(0).default(30000),
  IMPORTD_TRUSTED_PROXIES: trustedProxies.default([]),
  IMPORTD_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  IMPORTD_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  IMPORTD_RETENTION_DAYS: optionalText
    .transform((value) => (value === undefined ? undefined : Number(value)))
    .pipe(z.number().int().min(1).max(36500).optional()),
  IMPORTD_LEASE_SECONDS: z.coerce.number().int().min(3).max(3600).default(30),
  IMPORTD_PG_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  IMPORTD_PG_WRITERS: z.coerce.number().int().min(1).max(1000).default(10),
  IMPORTD_PG_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  IMPORTD_PG_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  IMPORTD_PG_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  IMPORTD_SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(1).max(3600).default(25),
  IMPORTD_METRICS_ADDR: optionalText.pipe(listenAddress.optional()),
  IMPORTD_LLM_URL: optionalText.pipe(z.url().optional()),
  IMPORTD_LLM_MODEL: optionalText,
  IMPORTD_LLM_API_KEY: optionalText,
  IMPORTD_LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120000).default(5000),
  IMPORTD_LLM_SEND_SAMPLES: booleanText.default(false),
  IMPORTD_LLM_MAX_PROMPT: byteSize.default(64 * 1024),
  IMPORTD_LEARN_MIN_END_USERS: z.coerce.number().int().min(1).max(1000).default(2),
  IMPORTD_LLM_CACHE_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(1000),
  IMPORTD_MAP_HEADERS_BUDGET: z.coerce.number().int().min(1000).default(20_000_000),
  IMPORTD_MAP_HEADERS_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  IMPORTD_MAX_EXPORTS: z.coerce.number().int().min(1).max(1000).default(4),
  IMPORTD_MAX_META_BYTES: byteSize.default(64 * 1024),
  IMPORTD_MAX_SCHEMA_BYTES: byteSize.default(1024 ** 2),
  IMPORTD_MAX_SCHEMA_FIELDS: z.coerce.number().int().min(1).max(1_000_000).default(2000),
  IMPORTD_MAX_ROW_BYTES: byteSize.default(1024 ** 2),
  IMPORTD_MAX_JSON_DEPTH: z.coerce.number().int().min(2).max(1000).default(64),
  IMPORTD_MAX_IMPORT_BYTES: byteSize.default(1024 ** 3),
  // 0 (or unset) is off; any other value is a size of at least 1kb.
  IMPORTD_ACCOUNT_QUOTA_BYTES: z.union([z.string().trim().regex(/^0+$/).transform(() => 0), byteSize]).default(0),
  IMPORTD_FILES_DIR: optionalText,
  IMPORTD_MAX_UPLOAD_BYTES: byteSize.default(10 * 1024 ** 3),
  // 0 is off; any other value is a size of at least 1kb.
  IMPORTD_UPLOAD_QUOTA_BYTES: z.union([z.string().trim().regex(/^0+$/).transform(() => 0), byteSize]).default(50 * 1024 ** 3),
  IMPORTD_UPLOAD_EXPIRE_SECONDS: z.coerce.number().int().min(60).max(30 * 86400).default(86400),
  IMPORTD_KEEP_FILES: booleanText.default(true),
  IMPORTD_WEBHOOK_RETRY_SCHEDULE: retrySchedule.default([5, 300, 1800, 7200, 18000, 36000, 36000]),
  IMPORTD_WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(60).default(10),
  IMPORTD_WEBHOOK_ALLOW_PRIVATE: booleanText.default(false),
  IMPORTD_WEBHOOK_DISABLE_AFTER_SECONDS: z.coerce.number().int().min(1).max(365 * 86400).default(3 * 86400),
  IMPORTD_WEBHOOK_MAX_ENDPOINTS: z.coerce.number().int().min(1).max(1000).default(20),
  IMPORTD_MAX_WEBHOOKS_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(50),
  IMPORTD_MAX_ENVIRONMENTS_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(50),
});

export type RawConfig = z.input<typeof ConfigSchema>;

/** The command-line flag of a setting, named in errors about a value that came from that flag. */
const FLAGS: Partial<Record<keyof RawConfig, string>> = { IMPORTD_DB: '--db', IMPORTD_HOST: '--host', IMPORTD_PORT: '--port' };

/**
 * The settings as services and adapters read them: the schema's parsed values, grouped and with defaults that
 * depend on other settings filled in (loadConfig).
 */
export type Config = ReturnType<typeof loadConfig>;
/** What one request may make the server store or work through (DESIGN.md "Limits"). */
export type Limits = Config['limits'];
export type WebhookSettings = Config['webhooks'];

/**
 * The largest legal body of a route other than POST /v1/imports is a template: its schema (at most
 * IMPORTD_MAX_SCHEMA_BYTES as stored, up to 3 times that as sent when a client escapes non-ASCII as \uXXXX)
 * plus 64 KiB of metadata. 4 MiB also holds any realistic map-headers call, and parses in ~20 ms.
 */
function defaultJsonBodyBytes(schemaBytes: number): number {
  return Math.max(4 * 1024 ** 2, 3 * schemaBytes + 128 * 1024);
}

/** `files` beside the SQLite file; for PostgreSQL (or a database in memory), `./data/files` (a temporary folder). */
function defaultFilesDir(db: string): string {
  if (db === ':memory:') return path.join(os.tmpdir(), 'importd-files');
  return isPostgresUrl(db) ? path.resolve('data', 'files') : path.join(path.dirname(path.resolve(db)), 'files');
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads the configuration: `overrides` (from command-line flags, same keys as the environment) win over
 * `env`, which wins over the defaults. Throws ConfigError naming the first bad setting.
 */
export function loadConfig(env: Record<string, string | undefined>, overrides: Partial<RawConfig> = {}) {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const value = overrides[key as keyof RawConfig] ?? env[key];
    if (value !== undefined) picked[key] = value;
  }
  const parsed = ConfigSchema.safeParse(picked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path[0] as keyof RawConfig;
    const name = overrides[key] !== undefined ? (FLAGS[key] ?? key) : key;
    throw new ConfigError(`invalid setting ${name}: ${issue.message}`);
  }
  const c = parsed.data;
  const llmParts = [c.IMPORTD_LLM_URL, c.IMPORTD_LLM_MODEL, c.IMPORTD_LLM_API_KEY];
  if (llmParts.some(Boolean) && !llmParts.every(Boolean)) {
    throw new ConfigError('invalid setting IMPORTD_LLM_URL: IMPORTD_LLM_URL, IMPORTD_LLM_MODEL and IMPORTD_LLM_API_KEY go together');
  }
  if (c.IMPORTD_METRICS_ADDR && c.IMPORTD_METRICS_ADDR.port !== 0 && c.IMPORTD_METRICS_ADDR.port === c.IMPORTD_PORT) {
    throw new ConfigError(`invalid setting IMPORTD_METRICS_ADDR: port ${c.IMPORTD_PORT} is the API port; metrics need a port of their own`);
  }
  return {
    /** A SQLite file's absolute path, or a `postgres://` URL as given (src/core/database-url.ts); resolved once, so every message names the file the working folder made of a relative path. */
    dbPath: c.IMPORTD_DB === ':memory:' || isPostgresUrl(c.IMPORTD_DB) ? c.IMPORTD_DB : path.resolve(c.IMPORTD_DB),
    host: c.IMPORTD_HOST,
    port: c.IMPORTD_PORT,
    /** A JSON import body (POST /v1/imports); a streamed NDJSON import is bounded by `limits.importBytes`. */
    maxBodyBytes: c.IMPORTD_MAX_BODY,
    /** The body of every other route: small, since each is parsed whole on the request thread. */
    maxJsonBodyBytes: c.IMPORTD_MAX_JSON_BODY ?? defaultJsonBodyBytes(c.IMPORTD_MAX_SCHEMA_BYTES),
    sessionSecret: c.IMPORTD_SESSION_SECRET,
    logLevel: c.IMPORTD_LOG_LEVEL,
    /** Requests per window: `limit` per key (a Public Key's per client address), `perAccount` for all of an account's keys; 0 is off. */
    rateLimit: { limit: c.IMPORTD_RATE_LIMIT, perAccount: c.IMPORTD_ACCOUNT_RATE_LIMIT, windowSeconds: c.IMPORTD_RATE_WINDOW_SECONDS },
    /**
     * Reverse proxies whose X-Forwarded-For is believed: a request from one of them is the client's that the
     * header names (http/client-address.ts). Empty: the socket's peer is the client.
     */
    trustedProxies: c.IMPORTD_TRUSTED_PROXIES,
    requestTimeoutSeconds: c.IMPORTD_REQUEST_TIMEOUT_SECONDS,
    retentionDays: c.IMPORTD_RETENTION_DAYS,
    /**
     * How long a node's hold on shared work lasts without renewal (an import it writes, the retention purge):
     * renewed every third of it while the work goes on, so a node that dies frees its work this long after.
     */
    leaseSeconds: c.IMPORTD_LEASE_SECONDS,
    /**
     * PostgreSQL connections of one process: `poolSize` for queries, `writers` for imports being written (each
     * holds one until it completes; more imports wait for one), and how long a connection, a statement and a
     * transaction left idle may take before they fail (a request then answers 503). Unused on SQLite.
     */
    postgres: {
      poolSize: c.IMPORTD_PG_POOL_SIZE,
      writers: c.IMPORTD_PG_WRITERS,
      connectTimeoutMs: c.IMPORTD_PG_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: c.IMPORTD_PG_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: c.IMPORTD_PG_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    /** How long a SIGTERM drain waits for requests in flight before it cuts them (their sockets destroyed). */
    shutdownGraceSeconds: c.IMPORTD_SHUTDOWN_GRACE_SECONDS,
    /** Where `serve` exposes Prometheus metrics; off when undefined. Never the API port. */
    metricsAddr: c.IMPORTD_METRICS_ADDR,
    llm: c.IMPORTD_LLM_URL
      ? {
          url: c.IMPORTD_LLM_URL,
          model: c.IMPORTD_LLM_MODEL!,
          apiKey: c.IMPORTD_LLM_API_KEY!,
          timeoutMs: c.IMPORTD_LLM_TIMEOUT_MS,
          sendSamples: c.IMPORTD_LLM_SEND_SAMPLES,
          maxPromptBytes: c.IMPORTD_LLM_MAX_PROMPT,
          cacheEntries: c.IMPORTD_LLM_CACHE_ENTRIES,
        }
      : undefined,
    /** Most pairwise work of one map-headers call (services/mapping/match-headers.ts, `pairwiseCost`). */
    mapHeadersBudget: c.IMPORTD_MAP_HEADERS_BUDGET,
    /** Long map-headers calls working at once in this process (services/mapping/work-limiter.ts). */
    mapHeadersConcurrency: c.IMPORTD_MAP_HEADERS_CONCURRENCY,
    /** Exports one account streams at once from this process (services/imports/export-slots.ts). */
    /** Distinct end-users who must confirm a learned pair before it is preferred (services/mapping/learned-mappings.ts). */
    learnMinEndUsers: c.IMPORTD_LEARN_MIN_END_USERS,
    exportsPerAccount: c.IMPORTD_MAX_EXPORTS,
    limits: {
      /** An import's `meta`, as JSON. */
      metaBytes: c.IMPORTD_MAX_META_BYTES,
      /** An import's `originalSchema` and a template's `schema`, as JSON. */
      schemaBytes: c.IMPORTD_MAX_SCHEMA_BYTES,
      /** Field keys of such a schema (`fields` or `columns`). */
      schemaFields: c.IMPORTD_MAX_SCHEMA_FIELDS,
      /** One stored row, as JSON. */
      rowBytes: c.IMPORTD_MAX_ROW_BYTES,
      /** Nesting of arrays and objects anywhere in a JSON body. */
      jsonDepth: c.IMPORTD_MAX_JSON_DEPTH,
      /** One import's body, in every format. */
      importBytes: c.IMPORTD_MAX_IMPORT_BYTES,
      /** The bytes of an account's stored imports, all together (services/imports/import-quota.ts); 0: no quota. */
      accountQuotaBytes: c.IMPORTD_ACCOUNT_QUOTA_BYTES,
    },
    uploads: {
      /** Where uploads and kept files live (beside a SQLite file by default; a folder every PostgreSQL node mounts). */
      filesDir: c.IMPORTD_FILES_DIR === undefined ? defaultFilesDir(c.IMPORTD_DB) : path.resolve(c.IMPORTD_FILES_DIR),
      /** One upload's Upload-Length. */
      maxBytes: c.IMPORTD_MAX_UPLOAD_BYTES,
      /** The bytes of an account's uploads in progress, all together; 0: no quota. */
      quotaBytes: c.IMPORTD_UPLOAD_QUOTA_BYTES,
      /** How long an upload may stay unfinished before it is gone. */
      expireSeconds: c.IMPORTD_UPLOAD_EXPIRE_SECONDS,
      /** Whether an upload's file is kept with the import it became (GET /v1/imports/{id}/file). */
      keepFiles: c.IMPORTD_KEEP_FILES,
    },
    webhooks: {
      /** Seconds to wait before each retry; a delivery fails for good once they are used up. */
      retrySchedule: c.IMPORTD_WEBHOOK_RETRY_SCHEDULE,
      timeoutMs: c.IMPORTD_WEBHOOK_TIMEOUT_SECONDS * 1000,
      /** Lifts the refusal of http URLs and of loopback, private, link-local and metadata addresses (tests, labs). */
      allowPrivate: c.IMPORTD_WEBHOOK_ALLOW_PRIVATE,
      /** An endpoint failing every attempt for this long is disabled. */
      disableAfterMs: c.IMPORTD_WEBHOOK_DISABLE_AFTER_SECONDS * 1000,
      /** Endpoints per environment. */
      maxEndpoints: c.IMPORTD_WEBHOOK_MAX_ENDPOINTS,
      /** Endpoints per account: bounds the deliveries one account-wide event makes. */
      maxEndpointsPerAccount: c.IMPORTD_MAX_WEBHOOKS_PER_ACCOUNT,
    },
    /** Live environments per account (each brings keys, endpoints and streams of its own). */
    maxEnvironmentsPerAccount: c.IMPORTD_MAX_ENVIRONMENTS_PER_ACCOUNT,
  };
}
