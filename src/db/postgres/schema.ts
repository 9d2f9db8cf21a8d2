import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, jsonb, pgTable, primaryKey, uniqueIndex } from 'drizzle-orm/pg-core';

// The same tables as src/db/sqlite/schema.ts. Times are ISO 8601 UTC strings with milliseconds and JSON
// members are text, exactly as on SQLite, so every response is byte-identical across engines. Text compares
// byte-wise ("C" collation) whatever the database's locale, as SQLite's BINARY does: keyset cursors over
// times and ids, and lists ordered by key, come out in the same order on both engines.
const text = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

export const accounts = pgTable('accounts', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  createdAt: text('created_at').notNull(),
});

export const environments = pgTable(
  'environments',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: text('created_at').notNull(),
    lastUsedAt: text('last_used_at'),
    deletedAt: text('deleted_at'),
    autoCreateTemplates: boolean('auto_create_templates').notNull().default(false),
  },
  (t) => [uniqueIndex('environments_account_name').on(t.accountId, t.name).where(sql`${t.deletedAt} is null`)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'secret' | 'public'>().notNull(),
    hash: text('hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    active: boolean('active').notNull().default(true),
    allowedOrigins: jsonb('allowed_origins').$type<string[]>().notNull().default([]),
    createdAt: text('created_at').notNull(),
    lastUsedAt: text('last_used_at'),
    deactivatedAt: text('deactivated_at'),
    expiresAt: text('expires_at'),
  },
  (t) => [index('api_keys_environment').on(t.environmentId, t.kind)],
);

export const templates = pgTable(
  'templates',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    // Where a large value sits costs PostgreSQL nothing (kept out of line, TOAST); SQLite's schema.ts puts it last.
    schema: text('schema').notNull(),
    source: text('source').notNull(),
    metadata: text('metadata').notNull().default('{}'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('templates_account_key').on(t.accountId, t.key),
    index('templates_account_created').on(t.accountId, t.createdAt, t.id),
    index('templates_account_updated').on(t.accountId, t.updatedAt, t.id),
  ],
);

export const imports = pgTable(
  'imports',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    environmentId: text('environment_id').references(() => environments.id, { onDelete: 'set null' }),
    templateId: text('template_id')
      .notNull()
      .references(() => templates.id),
    // 'writing' while rows are still being stored: never visible to readers, removed at start if left over.
    status: text('status').$type<'writing' | 'complete'>().notNull(),
    // The node writing it and until when its lease runs (src/db/sqlite/schema.ts says why).
    writerNode: text('writer_node'),
    leaseUntil: text('lease_until'),
    meta: text('meta').notNull(),
    // Kept in the row here: PostgreSQL keeps a large value out of line (TOAST), so reading or updating the row does
    // not touch it. SQLite keeps it in a table of its own (src/db/sqlite/schema.ts says why).
    originalSchema: text('original_schema').notNull(),
    file: text('file'),
    fileId: text('file_id'),
    endUserId: text('end_user_id'),
    endUserEmail: text('end_user_email'),
    endUserIp: text('end_user_ip'),
    importedFrom: text('imported_from'),
    sessionJti: text('session_jti'),
    rowCount: integer('row_count').notNull().default(0),
    cellStats: text('cell_stats').notNull().default('{}'),
    /** The invalid cells by field and code (services/imports/error-summary.ts); null when none was. */
    errorSummary: text('error_summary'),
    /** A keyed template's import: `upsert` or `replace`; null otherwise (the datasets migration). */
    mode: text('mode').$type<'upsert' | 'replace'>(),
    /** What applying it changed in its dataset (DatasetChanges as JSON); null for an unkeyed template's. */
    changes: text('changes'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    // The import body's bytes, set as it completes: import_counts.bytes sums them (IMPORTD_ACCOUNT_QUOTA_BYTES).
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    // Whether the import counts (docs/templates.md "Review"): 'completed', 'pending_review' or 'rejected'.
    reviewStatus: text('review_status').$type<'completed' | 'pending_review' | 'rejected'>().notNull().default('completed'),
    reviewedAt: text('reviewed_at'),
    reviewReason: text('review_reason'),
  },
  (t) => [
    index('imports_account_created').on(t.accountId, t.createdAt, t.id),
    index('imports_account_updated').on(t.accountId, t.updatedAt, t.id),
    index('imports_account_template_created').on(t.accountId, t.templateId, t.createdAt, t.id),
    index('imports_account_template_updated').on(t.accountId, t.templateId, t.updatedAt, t.id),
    index('imports_account_end_user').on(t.accountId, t.endUserId),
    index('imports_account_status').on(t.accountId, t.status),
    index('imports_writing').on(t.status).where(sql`${t.status} = 'writing'`),
    index('imports_account_environment_created').on(t.accountId, t.environmentId, t.createdAt, t.id),
    index('imports_account_environment_updated').on(t.accountId, t.environmentId, t.updatedAt, t.id),
    // The `status` filter of GET /imports (src/db/sqlite/schema.ts says why partial).
    index('imports_account_review_created').on(t.accountId, t.reviewStatus, t.createdAt, t.id).where(sql`${t.reviewStatus} <> 'completed'`),
    index('imports_account_review_updated').on(t.accountId, t.reviewStatus, t.updatedAt, t.id).where(sql`${t.reviewStatus} <> 'completed'`),
    // An upload's import, found again by a node that resumes the upload (services/uploads/process-upload.ts).
    index('imports_account_file').on(t.accountId, t.fileId).where(sql`${t.fileId} IS NOT NULL`),
  ],
);

// How many complete imports each account has, kept by triggers on `imports` (the import_counts migration) in
// the transaction that changes them: the unfiltered list's `total` reads one row instead of counting the
// account's imports, and stays exact for every writer (several nodes, retention, erasure, cascades).
export const importCounts = pgTable('import_counts', {
  accountId: text('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  complete: integer('complete').notNull(),
  /** The bytes of those imports (imports.bytes), kept by the same triggers (the account_quota migration). */
  bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
});

export const importRows = pgTable(
  'import_rows',
  {
    // No foreign key to imports, unlike SQLite: PostgreSQL checks one by a trigger per row, which cost about
    // 40 % of a 100 000-row import's COPY; no row can outlive its import without it, since rows commit only
    // in a transaction holding their 'writing' import's row locked (row-copies.ts), and deleteImport deletes
    // the import row before the rows left.
    importId: text('import_id').notNull(),
    rowIndex: integer('row_index').notNull(),
    data: text('data').notNull(),
    /** An invalid row kept (onInvalid `keep`): its errors as JSON `[{key, code, message}]`; null when valid. */
    errors: text('errors'),
  },
  (t) => [primaryKey({ columns: [t.importId, t.rowIndex] }), index('import_rows_invalid').on(t.importId, t.rowIndex).where(sql`${t.errors} IS NOT NULL`)],
);

export const themes = pgTable('themes', {
  id: text('id').primaryKey(),
  accountId: text('account_id')
    .notNull()
    .unique()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description').notNull(),
  lightColors: text('light_colors').notNull(),
  darkColors: text('dark_colors').notNull(),
  radius: text('radius').notNull(),
  sizes: text('sizes').notNull(),
  effects: text('effects').notNull(),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
});

export const sessions = pgTable(
  'sessions',
  {
    jti: text('jti').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    templateId: text('template_id'),
    endUserId: text('end_user_id').notNull(),
    endUserEmail: text('end_user_email'),
    endUserIp: text('end_user_ip'),
    metadata: text('metadata').notNull().default('{}'),
    createdAt: text('created_at').notNull(),
    expiresAt: text('expires_at').notNull(),
    revokedAt: text('revoked_at'),
  },
  (t) => [index('sessions_account_end_user').on(t.accountId, t.endUserId)],
);

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const learnedMappings = pgTable(
  'learned_mappings',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    templateId: text('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    schemaKey: text('schema_key').notNull(),
    // '' for a header mapping (file_label: the header's label); else a value of an enum field's column, and
    // file_label the option it stands for (meta.valueMapping).
    fileValue: text('file_value').notNull().default(''),
    // '' for a Secret Key (or operator) import, else the SHA-256 of the end-user id: one label per confirmer and key.
    confirmer: text('confirmer').notNull(),
    fileLabel: text('file_label').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.templateId, t.schemaKey, t.fileValue, t.confirmer] }),
    index('learned_mappings_confirmer_recent').on(t.accountId, t.confirmer, t.templateId, t.updatedAt, t.schemaKey, t.fileValue),
  ],
);

/** A webhook endpoint (src/db/sqlite/schema.ts says why the secret is kept as issued). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    events: text('events').notNull(),
    secret: text('secret').notNull(),
    active: boolean('active').notNull().default(true),
    disabledReason: text('disabled_reason'),
    failingSince: text('failing_since'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('webhook_endpoints_environment').on(t.environmentId, t.createdAt, t.id), index('webhook_endpoints_account').on(t.accountId, t.createdAt, t.id)],
);

/** The outbox (see src/db/sqlite/schema.ts). */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    importId: text('import_id'),
    endUserId: text('end_user_id'),
    payload: text('payload').notNull(),
    createdAt: text('created_at').notNull(),
    environmentId: text('environment_id'),
    fanoutPending: boolean('fanout_pending').notNull().default(false),
    fanoutAfter: text('fanout_after'),
  },
  (t) => [
    index('webhook_events_import').on(t.importId),
    index('webhook_events_end_user').on(t.accountId, t.endUserId),
    index('webhook_events_created').on(t.createdAt),
    index('webhook_events_fanout').on(t.accountId, t.id).where(sql`${t.fanoutPending}`),
  ],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at'),
    lastAttemptAt: text('last_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    lastResponse: text('last_response'),
    lastError: text('last_error'),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: text('lease_expires_at'),
  },
  (t) => [
    primaryKey({ columns: [t.endpointId, t.eventId] }),
    index('webhook_deliveries_event').on(t.eventId),
    index('webhook_deliveries_endpoint_due').on(t.endpointId, t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  ],
);

/** Named leases held by one node until `expiresAt` (the retention purge). */
export const locks = pgTable('locks', {
  name: text('name').primaryKey(),
  owner: text('owner').notNull(),
  expiresAt: text('expires_at').notNull(),
});

/** Requests per key and rate-limit window, counted by every node (one upsert per request); old windows pruned. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    keyId: text('key_id').notNull(),
    windowStart: bigint('window_start', { mode: 'number' }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.windowStart] }), index('rate_limits_window').on(t.windowStart)],
);

/** Resumable uploads (tus) and, once completed, the record of their import's original file. */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    environmentId: text('environment_id'),
    endUserId: text('end_user_id'),
    owner: text('owner').notNull(),
    metadata: text('metadata').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    status: text('status').$type<'receiving' | 'processing' | 'completed' | 'failed'>().notNull(),
    rowsProcessed: bigint('rows_processed', { mode: 'number' }).notNull().default(0),
    importId: text('import_id'),
    error: text('error'),
    leaseNode: text('lease_node'),
    leaseUntil: text('lease_until'),
    createdAt: text('created_at').notNull(),
    expiresAt: text('expires_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('uploads_account_status').on(t.accountId, t.status), index('uploads_status_expires').on(t.status, t.expiresAt), index('uploads_import').on(t.importId)],
);
