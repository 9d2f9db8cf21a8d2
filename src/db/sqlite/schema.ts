import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

// Times are ISO 8601 UTC strings with milliseconds: they sort lexicographically, so keyset cursors and
// range filters work on them directly. JSON members are stored as text and spliced into responses.

export const accounts = sqliteTable('accounts', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  createdAt: text('created_at').notNull(),
});

export const environments = sqliteTable(
  'environments',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: text('created_at').notNull(),
    lastUsedAt: text('last_used_at'),
    // A deleted environment stays (its imports still name it) but is gone for every other purpose; its name
    // can be used again.
    deletedAt: text('deleted_at'),
    // Whether a Public Key session may create a template by importing into an unknown key (a Secret Key always may).
    autoCreateTemplates: integer('auto_create_templates', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [uniqueIndex('environments_account_name').on(t.accountId, t.name).where(sql`${t.deletedAt} is null`)],
);

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['secret', 'public'] }).notNull(),
    hash: text('hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    allowedOrigins: text('allowed_origins', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    createdAt: text('created_at').notNull(),
    lastUsedAt: text('last_used_at'),
    deactivatedAt: text('deactivated_at'),
    // A rolled key kept for a grace period: active until then (null: until deactivated).
    expiresAt: text('expires_at'),
  },
  (t) => [index('api_keys_environment').on(t.environmentId, t.kind)],
);

export const templates = sqliteTable(
  'templates',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    source: text('source').notNull(),
    metadata: text('metadata').notNull().default('{}'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    // Last (the templates_schema_last migration moved it here; SQLite adds a NOT NULL column only with a
    // default): a schema is up to 1 MiB, and SQLite walks every overflow page of a value to reach the columns after
    // it, so a list page of templates, which shows no schema, read them all (100 templates of 1 MB: 77 ms a page).
    schema: text('schema').notNull().default('{}'),
  },
  (t) => [
    uniqueIndex('templates_account_key').on(t.accountId, t.key),
    index('templates_account_created').on(t.accountId, t.createdAt, t.id),
    index('templates_account_updated').on(t.accountId, t.updatedAt, t.id),
  ],
);

export const imports = sqliteTable(
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
    status: text('status', { enum: ['writing', 'complete'] }).notNull(),
    // The node writing it and until when its lease runs (renewed while it writes): once the lease has run out,
    // or with no writer (hidden for deletion), any node's clean-up may take the import over and remove it.
    writerNode: text('writer_node'),
    leaseUntil: text('lease_until'),
    meta: text('meta').notNull(),
    file: text('file'),
    fileId: text('file_id'),
    endUserId: text('end_user_id'),
    endUserEmail: text('end_user_email'),
    endUserIp: text('end_user_ip'),
    importedFrom: text('imported_from'),
    sessionJti: text('session_jti'),
    rowCount: integer('row_count').notNull().default(0),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    // The import body's bytes, set as it completes: import_counts.bytes sums them (IMPORTD_ACCOUNT_QUOTA_BYTES).
    bytes: integer('bytes').notNull().default(0),
    // Whether the import counts (docs/templates.md "Review"): 'completed', 'pending_review' or 'rejected'; the
    // list reads it, so it stands before the statistics (the import_review migration moved them after it).
    reviewStatus: text('review_status', { enum: ['completed', 'pending_review', 'rejected'] }).notNull().default('completed'),
    reviewedAt: text('reviewed_at'),
    reviewReason: text('review_reason'),
    // Last (the import_schemas and import_review migrations moved them here): SQLite reads a row's columns in
    // order, through every overflow page of a large value before them, and the statistics grow with the columns
    // (100 KB for 2 000): the list, which does not show them, stops before.
    cellStats: text('cell_stats').notNull().default('{}'),
    /** The invalid cells by field and code (services/imports/error-summary.ts); null when none was. */
    errorSummary: text('error_summary'),
    /** A keyed template's import: `upsert` or `replace`; null otherwise (the datasets migration). */
    mode: text('mode').$type<'upsert' | 'replace'>(),
    /** What applying it changed in its dataset (DatasetChanges as JSON); null for an unkeyed template's. */
    changes: text('changes'),
  },
  (t) => [
    index('imports_account_created').on(t.accountId, t.createdAt, t.id),
    index('imports_account_updated').on(t.accountId, t.updatedAt, t.id),
    index('imports_account_template_created').on(t.accountId, t.templateId, t.createdAt, t.id),
    index('imports_account_template_updated').on(t.accountId, t.templateId, t.updatedAt, t.id),
    index('imports_account_end_user').on(t.accountId, t.endUserId),
    // Made for the unfiltered list's `total` (a COUNT read from the index alone), which importCounts now
    // answers; dropping it would be a migration of its own.
    index('imports_account_status').on(t.accountId, t.status),
    // Only imports still being written (for the clean-up at start): a full index on status would tempt the
    // planner to read every account's complete imports instead of using an account index.
    index('imports_writing').on(t.status).where(sql`${t.status} = 'writing'`),
    // The `environment` filter of GET /imports keeps a constant page cost with these.
    index('imports_account_environment_created').on(t.accountId, t.environmentId, t.createdAt, t.id),
    index('imports_account_environment_updated').on(t.accountId, t.environmentId, t.updatedAt, t.id),
    // The `status` filter of GET /imports: only imports awaiting or refused review (few), so completing an
    // import costs no index write; a query uses them when it repeats their condition (queries/imports.ts).
    index('imports_account_review_created').on(t.accountId, t.reviewStatus, t.createdAt, t.id).where(sql`${t.reviewStatus} <> 'completed'`),
    index('imports_account_review_updated').on(t.accountId, t.reviewStatus, t.updatedAt, t.id).where(sql`${t.reviewStatus} <> 'completed'`),
    // An upload's import, found again by a node that resumes the upload (services/uploads/process-upload.ts).
    index('imports_account_file').on(t.accountId, t.fileId).where(sql`${t.fileId} IS NOT NULL`),
  ],
);

// An import's original schema (up to 1 MiB) in a table of its own, one row per import, written with it: an
// import's row stays small, so reading it (the list, the detail) never walks the schema's overflow pages, and
// updating it (completion, lease renewals, hiding 100 imports for an erasure in one transaction) does not copy
// the schema again (SQLite rewrites the whole row on any update: 3 ms per 1 MB schema).
export const importSchemas = sqliteTable('import_schemas', {
  importId: text('import_id')
    .primaryKey()
    .references(() => imports.id, { onDelete: 'cascade' }),
  originalSchema: text('original_schema').notNull(),
});

// How many complete imports each account has, kept by triggers on `imports` (the import_counts migration) in
// the transaction that changes them: the unfiltered list's `total` reads one row instead of counting the
// account's imports, and stays exact for every writer (several nodes, retention, erasure, cascades).
export const importCounts = sqliteTable('import_counts', {
  accountId: text('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  complete: integer('complete').notNull(),
  /** The bytes of those imports (imports.bytes), kept by the same triggers (the account_quota migration). */
  bytes: integer('bytes').notNull().default(0),
});

export const importRows = sqliteTable(
  'import_rows',
  {
    importId: text('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    rowIndex: integer('row_index').notNull(),
    data: text('data').notNull(),
    /** An invalid row kept (onInvalid `keep`): its errors as JSON `[{key, code, message}]`; null when valid. */
    errors: text('errors'),
  },
  (t) => [primaryKey({ columns: [t.importId, t.rowIndex] }), index('import_rows_invalid').on(t.importId, t.rowIndex).where(sql`${t.errors} IS NOT NULL`)],
);

export const themes = sqliteTable('themes', {
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

export const sessions = sqliteTable(
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

export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** Header mappings confirmed for an account's template (POST /imports `meta.mapping`): schema key -> file label, per confirmer. */
export const learnedMappings = sqliteTable(
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

/**
 * A customer's webhook endpoint, registered per environment. The secret is kept as issued (`whsec_...`): it
 * must sign every delivery, so unlike API keys it cannot be stored as a hash; the database file is 0600.
 */
export const webhookEndpoints = sqliteTable(
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
    events: text('events', { mode: 'json' }).$type<string[]>().notNull(),
    secret: text('secret').notNull(),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    disabledReason: text('disabled_reason'),
    // The first failed attempt since the last success: the endpoint is disabled once it is old enough.
    failingSince: text('failing_since'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('webhook_endpoints_environment').on(t.environmentId, t.createdAt, t.id), index('webhook_endpoints_account').on(t.accountId, t.createdAt, t.id)],
);

/**
 * The outbox: one row per event, written in the transaction of the change; `payload` is the exact body sent.
 * The import and end-user it is about are kept so their deletion (and retention) can erase it too.
 */
export const webhookEvents = sqliteTable(
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
    // The environment whose endpoints hear of it (null: every environment of the account).
    environmentId: text('environment_id'),
    // Set while the sender has not yet made every delivery of the event; `fanoutAfter` is the last endpoint
    // (in id order) it made one for. The request's transaction writes the event alone, the sender its deliveries.
    fanoutPending: integer('fanout_pending', { mode: 'boolean' }).notNull().default(false),
    fanoutAfter: text('fanout_after'),
  },
  (t) => [
    index('webhook_events_import').on(t.importId),
    index('webhook_events_end_user').on(t.accountId, t.endUserId),
    index('webhook_events_created').on(t.createdAt),
    index('webhook_events_fanout').on(t.accountId, t.id).where(sql`${t.fanoutPending} = 1`),
  ],
);

/** One event to one endpoint; a sender owns it while `leaseOwner` holds an unexpired lease. */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull(),
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
/** Named leases (a retention purge, ...): held by one node until `expiresAt`, then free for any node to take. */
export const locks = sqliteTable('locks', {
  name: text('name').primaryKey(),
  owner: text('owner').notNull(),
  expiresAt: text('expires_at').notNull(),
});

/** Resumable uploads (tus) and, once completed, the record of their import's original file. */
export const uploads = sqliteTable(
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
    sizeBytes: integer('size_bytes').notNull(),
    status: text('status', { enum: ['receiving', 'processing', 'completed', 'failed'] }).notNull(),
    rowsProcessed: integer('rows_processed').notNull().default(0),
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
