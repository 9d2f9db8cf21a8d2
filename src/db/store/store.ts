import type {
  AccountRow,
  ClaimedDelivery,
  ApiKeyRow,
  EnvironmentRow,
  ImportListRow,
  ImportRow,
  ImportViewRow,
  LearnedMappingRow,
  LearnedPairRow,
  LearnedListRow,
  ReviewStatus,
  RowStatus,
  SessionRow,
  StoredRow,
  TemplateRow,
  TemplateSummaryRow,
  ThemeRow,
  UploadRow,
  WebhookDeliveryRow,
  WebhookEndpointRow,
} from './rows';
import type { RowTextForm, RowTexts } from './row-texts';
import type { DatasetApply, DatasetChanges, DatasetStore } from './datasets';

// The storage boundary (DESIGN.md "Storage engines"): services call these repositories and nothing else.
// Every method that must be atomic is one method here, so no engine ever offers a generic async transaction
// (SQLite's one shared connection would let other requests' statements join it across an await).

/** A unique name or key is taken: the race-proof signal, thrown by inserts and updates; services map it to conflict. */
export class UniqueViolationError extends Error {
  constructor(cause?: unknown) {
    super('unique constraint violated', { cause });
    this.name = 'UniqueViolationError';
  }
}

/**
 * An import's completion would take its account past the quota it was given (`imports.complete`): nothing of the
 * completion stays; services map it to quota_exceeded.
 */
export class QuotaExceededError extends Error {
  constructor() {
    super('account quota exceeded');
    this.name = 'QuotaExceededError';
  }
}

/** A keyset position: the last item of the previous page. */
export interface KeysetPosition {
  value: string;
  id: string;
}

/** Filters of GET /imports, already normalised (dates as stored ISO strings). */
export interface ImportFilters {
  templateId?: string | null;
  startDate?: string | null;
  endDate?: string | null;
  /** A case-insensitive substring, `%` and `_` plain characters. */
  userEmail?: string | null;
  environment?: string | null;
  /** The import's review status (docs/templates.md "Review"). */
  status?: ReviewStatus | null;
}

/** A reviewer's decision on a pending import: approved (it becomes `completed`) or `rejected`. */
export interface ReviewDecision {
  status: Exclude<ReviewStatus, 'pending_review'>;
  at: string;
  reason: string | null;
}

export interface PageQuery {
  orderBy: 'createdAt' | 'updatedAt';
  direction: 'asc' | 'desc';
  after?: KeysetPosition;
  limit: number;
}

export interface AccountStore {
  findByName(name: string): Promise<AccountRow | undefined>;
  /** Oldest first. */
  list(): Promise<AccountRow[]>;
  /** Throws UniqueViolationError when the name is taken. */
  insert(row: AccountRow): Promise<void>;
  /** Inserts unless an account of that name exists (several processes may race to create the default one). */
  insertIfMissing(row: AccountRow): Promise<void>;
}

export interface EnvironmentStore {
  /** A live (not deleted) environment of the account. */
  findByName(accountId: string, name: string): Promise<EnvironmentRow | undefined>;
  /** Any environment, deleted or not (imports keep naming theirs). */
  findById(id: string): Promise<EnvironmentRow | undefined>;
  list(accountId: string): Promise<EnvironmentRow[]>;
  /**
   * The environment with its first keys, atomically, unless the account has `max` live environments (false);
   * counted in the same transaction, so two concurrent creates cannot pass the cap. Throws
   * UniqueViolationError when the name is taken.
   */
  create(environment: EnvironmentRow, keys: ApiKeyRow[], max: number): Promise<boolean>;
  /** Sets whether Public Key sessions may auto-create templates; the environment afterwards, undefined when there is none live. */
  setAutoCreateTemplates(environmentId: string, allowed: boolean): Promise<EnvironmentRow | undefined>;
  /** The active keys of the environments: the current one of each kind, and a rolled one in its grace period. */
  activeKeysOf(environmentIds: string[]): Promise<ApiKeyRow[]>;
  findKeyByHash(hash: string): Promise<ApiKeyRow | undefined>;
  /** Replaces the origins of the environment's active Public Keys; returns its active keys afterwards. */
  setPublicOrigins(environmentId: string, origins: string[]): Promise<ApiKeyRow[]>;
  /**
   * Replaces the current key of `fresh.kind` by `fresh` (a Public Key inherits the previous one's origins),
   * atomically; the previous key is deactivated now (`expiresAt` null) or kept until `expiresAt`. Returns the
   * previous key, or undefined when the environment has no current key of that kind (nothing is written).
   */
  rollKey(fresh: ApiKeyRow, expiresAt: string | null): Promise<ApiKeyRow | undefined>;
  /** Records a use of the key and its environment. */
  touchKey(key: Pick<ApiKeyRow, 'id' | 'environmentId'>, at: string): Promise<void>;
  /** Deactivates every key, revokes every session and marks the environment deleted, atomically. */
  delete(environmentId: string, at: string): Promise<{ keys: number; sessions: number }>;
  /** Every allowed origin of every usable Public Key. */
  allActiveOrigins(now: string): Promise<string[][]>;
}

export interface TemplateStore {
  find(accountId: string, id: string): Promise<TemplateRow | undefined>;
  findByKey(accountId: string, key: string): Promise<TemplateRow | undefined>;
  /** Throws UniqueViolationError when the account has a template with that key. */
  insert(row: TemplateRow): Promise<void>;
  /** Inserts unless the account has a template with that key; returns the one stored under the key either way. */
  insertIfKeyFree(row: TemplateRow): Promise<TemplateRow>;
  /** Returns the updated row, or undefined when there is none. Throws UniqueViolationError (key taken). */
  update(
    accountId: string,
    id: string,
    changes: Partial<Pick<TemplateRow, 'key' | 'schema' | 'source' | 'metadata' | 'updatedAt'>>,
  ): Promise<TemplateRow | undefined>;
  count(accountId: string): Promise<number>;
  /** One keyset page without schemas. */
  page(accountId: string, query: PageQuery): Promise<TemplateSummaryRow[]>;
}

export type ImportSummaryRow = Pick<ImportRow, 'id' | 'templateId' | 'createdAt' | 'updatedAt' | 'fileId' | 'meta'>;

/** What completing an import sets: `meta` only when the server's counts were added to it. */
export type CompletedValues = Pick<ImportRow, 'rowCount' | 'cellStats' | 'createdAt' | 'updatedAt'> &
  Partial<Pick<ImportRow, 'meta' | 'mode'>> & {
    /** The import body's bytes (0 when not given): the account's storedBytes grow by them as it completes. */
    bytes?: number;
    /** The invalid cells by field and code (services/imports/error-summary.ts); null when none was. */
    errorSummary?: string | null;
  };

/** The quota an import's completion is held to (IMPORTD_ACCOUNT_QUOTA_BYTES). */
export interface AccountQuota {
  accountId: string;
  maxBytes: number;
}

/** An import as first stored: it needs review or not (completed by default), and nobody has decided yet. */
export type NewImportRow = Omit<ImportRow, 'reviewStatus' | 'reviewedAt' | 'reviewReason'> & Partial<Pick<ImportRow, 'reviewStatus'>>;

/** An event to write with a completion: given, or built from the changes the completion applied. */
export type CompletionEvent = WebhookEventDraft | ((changes: DatasetChanges | null) => WebhookEventDraft | undefined);

export interface ImportStore {
  insert(row: NewImportRow): Promise<void>;
  /**
   * Makes a written import visible: counts, statistics and times set in the same statement as the status.
   * False when the import is no longer `writerNode`'s (hidden for deletion, or taken over by a clean-up after
   * its lease ran out): nothing then changes. Rejects when its rows could not be stored. With `quota`, the
   * account's stored bytes (the counter the completion moves, read in its transaction after its own charge, so
   * concurrent completions on any node are counted one after the other) must stay within `maxBytes`, else it
   * rejects with QuotaExceededError and nothing of the completion stays.
   * With `apply` (a
   * keyed template's import), the import is applied to its dataset in the same transaction (DatasetStore.apply)
   * and `event` may be built from the changes.
   */
  complete(
    id: string,
    writerNode: string,
    values: CompletedValues,
    event?: CompletionEvent,
    learned?: LearnedMappingsWrite,
    quota?: AccountQuota,
    apply?: DatasetApply,
  ): Promise<false | { changes: DatasetChanges | null }>;
  /**
   * Records a reviewer's decision on a complete import of the account that is `pending_review`, in one
   * transaction: its reviewStatus becomes `decision.status` (updatedAt and reviewedAt `decision.at`, the
   * reason kept), with `apply` (an approved keyed template's import) the import is applied to its dataset as
   * the dataset is now, and `events(changes)` are written (the outbox). Answers the import as it is
   * afterwards, or undefined when it is not pending (decided meanwhile) or not there: nothing then changes,
   * so of two concurrent decisions exactly one is recorded.
   */
  review(accountId: string, id: string, decision: ReviewDecision, events: (changes: DatasetChanges | null) => WebhookEventDraft[], apply?: DatasetApply): Promise<ImportViewRow | undefined>;
  /** Extends the lease of an import `writerNode` is writing; false when it is no longer that node's. */
  renewLease(id: string, writerNode: string, until: string): Promise<boolean>;
  /**
   * Takes over, in one statement, up to `limit` unfinished imports nobody holds (hidden for deletion, or their
   * writer's lease ended before `now`): they become `node`'s until `until`, so their writer can no longer
   * complete them and no other node's clean-up takes them meanwhile. Returns their ids.
   */
  claimAbandoned(node: string, now: string, until: string, limit: number): Promise<string[]>;
  /**
   * Takes an unfinished import for removal: it becomes `node`'s until `until` when it has no writer (hidden),
   * its lease ran out before `now`, or it is `node`'s already. False when another node holds it.
   */
  claim(id: string, node: string, now: string, until: string): Promise<boolean>;
  /** Deletes the import (any status) with its rows. */
  delete(id: string): Promise<void>;
  /** A complete import of the account. */
  find(accountId: string, id: string): Promise<ImportRow | undefined>;
  /** A complete import of the account without its originalSchema: every detail and rows page reads it. */
  findView(accountId: string, id: string): Promise<ImportViewRow | undefined>;
  /** A complete import's summary of invalid cells (null: none; undefined: no such import). */
  errorSummary(accountId: string, id: string): Promise<string | null | undefined>;
  page(accountId: string, query: PageQuery & { filters: ImportFilters }): Promise<ImportListRow[]>;
  count(accountId: string, filters: ImportFilters): Promise<number>;
  /**
   * The bytes of the account's complete imports (IMPORTD_ACCOUNT_QUOTA_BYTES): a counter kept by triggers in
   * the transaction of every completion, hiding and deletion, so it is exact for every node.
   */
  storedBytes(accountId: string): Promise<number>;
  /** The counts and newest complete imports of the account, read at one point in time. */
  overview(accountId: string, latest: number): Promise<{ templates: number; imports: number; latest: ImportSummaryRow[] }>;
}

export interface RowStore {
  /**
   * Stores rows `first`, `first + 1`, ... of an import being written. They are readable once
   * `imports.complete` answered true; a refused row fails this append or the completion, and the import's
   * rows are then removed with it (SQLite: each append is its own transaction; PostgreSQL: COPY batches,
   * one from the first append to the completion unless the upload pauses or other imports wait for a
   * writer connection, see row-copies.ts).
   * Either form of row texts is taken; `textForm` is the one taken without a conversion.
   */
  append(importId: string, first: number, rows: RowTexts): Promise<void>;
  /** The form producers should hand rows over in: SQLite binds strings, PostgreSQL's COPY sends UTF-8 bytes. */
  readonly textForm: RowTextForm;
  /**
   * Up to `limit` rows past `from` in row order (asc: rowIndex > from; desc: rowIndex < from), and fewer when
   * they are large: once the rows read hold `maxBytes` characters of JSON, one more row is read and the chunk ends.
   */
  chunk(importId: string, direction: 'asc' | 'desc', from: number, limit: number, maxBytes: number): Promise<StoredRow[]>;
  /** Up to `limit` rows of one status past `from` in row order, each with its errors. */
  ofStatus(importId: string, status: RowStatus, direction: 'asc' | 'desc', from: number, limit: number): Promise<StoredRow[]>;
  /** The errors of the invalid rows from `low` to `high` (row indexes, both included), in no order. */
  errorsBetween(importId: string, low: number, high: number): Promise<{ rowIndex: number; errors: string }[]>;
  /**
   * Drops the import's rows this process has sent but not made durable yet (PostgreSQL: its open COPY batch,
   * rolled back); nothing on SQLite, where each append commits. For a writer giving up an import it may no
   * longer own; the rows already committed are removed with the import.
   */
  discard(importId: string): Promise<void>;
}

export interface SessionStore {
  insert(row: SessionRow): Promise<void>;
  find(jti: string): Promise<SessionRow | undefined>;
  findOfAccount(accountId: string, jti: string): Promise<SessionRow | undefined>;
  /** Sets revokedAt unless already set. */
  revoke(jti: string, at: string): Promise<void>;
}

export interface ThemeStore {
  find(accountId: string): Promise<ThemeRow | undefined>;
  /** Throws UniqueViolationError when the account has a theme. */
  insert(row: ThemeRow): Promise<void>;
  /** Returns the updated row, or undefined when the account has no theme. */
  update(accountId: string, changes: Omit<ThemeRow, 'id' | 'accountId' | 'createdAt'>): Promise<ThemeRow | undefined>;
  /** Inserts `row`, or updates the account's theme with its members; returns the stored row. */
  upsert(row: ThemeRow): Promise<ThemeRow>;
}

export interface SettingStore {
  read(key: string): Promise<string | undefined>;
  /** Stores the value unless one is there; returns whichever value is stored afterwards. */
  insertOnce(key: string, value: string): Promise<string>;
  /** Reads, changes and writes one setting atomically; `change` is synchronous and may throw to write nothing. */
  modify(key: string, change: (current: string | undefined) => string): Promise<string>;
}

// Deletions hide imports first (status 'writing' with no writer: no read sees them, their writer can no longer
// complete them, the start-up clean-up removes what a stopped process left), then empty them in batches.
export interface ComplianceStore {
  /**
   * Hides every import (any status) and deletes every session and webhook event about the end-user in the
   * account, atomically, then writes `event` unless that erased nothing (no import, no session): an erasure of
   * an end-user who never existed costs no event and no delivery.
   */
  hideEndUser(accountId: string, endUserId: string, event?: WebhookEventDraft): Promise<{ hidden: string[]; sessions: number }>;
  /** Hides a complete import of the account and erases the webhook events about it; false when there is none (and `event` is not written). */
  hideComplete(accountId: string, importId: string, event?: WebhookEventDraft): Promise<boolean>;
  /** Hides up to `limit` complete imports created before `cutoff`, oldest first, erasing their webhook events; returns their ids. */
  hideExpired(cutoff: string, limit: number): Promise<string[]>;
  /** Deletes up to `limit` rows of the import in one transaction; returns how many. */
  deleteRows(importId: string, limit: number): Promise<number>;
}

/**
 * The labels one confirmer gave with an import, remembered in the transaction that completes the import: each
 * entry inserted or replaced (one label per confirmer and schema key), then the confirmer's `keepPerEndUser`
 * most recent of the template kept (end-users only; ties by schema key), then, past `keepPerTemplate`, the
 * template trimmed from its largest confirmers down (`learnedTrims`), so one confirmer never pushes out another
 * that holds fewer entries. An import is never stored without them nor they without it.
 */
export interface LearnedMappingsWrite {
  accountId: string;
  templateId: string;
  confirmer: string;
  rows: LearnedMappingRow[];
  keepPerEndUser: number;
  keepPerTemplate: number;
}

/** What to forget: one template's entries (or one schema key's of it), or every entry of the account. */
export type LearnedScope = { templateId: string; schemaKey?: string } | { all: true };

export interface LearnedMappingStore {
  /** The template's pairs for these schema keys, one per (schema key, label), in no particular order. */
  find(accountId: string, templateId: string, schemaKeys: string[]): Promise<LearnedPairRow[]>;
  /** The account's pairs (of one template when given), by template, schema key and label. */
  list(accountId: string, templateId?: string): Promise<LearnedListRow[]>;
  /** Deletes what `scope` names; returns how many entries went. */
  delete(accountId: string, scope: LearnedScope): Promise<number>;
  /** Deletes every entry one confirmer gave in the account (end-user erasure); returns how many. */
  deleteConfirmer(accountId: string, confirmer: string): Promise<number>;
}

/** Whether an end-user's erasure removed anything (else it reports no event). */
export const erasedSomething = (erased: { hidden: string[]; sessions: number }): boolean => erased.hidden.length > 0 || erased.sessions > 0;

/**
 * An event for the outbox, passed to the store method that makes the change it reports, which writes it ONCE
 * in the same transaction, marked for fan-out: the sender then makes one delivery per active endpoint
 * subscribed to `type` in `environmentId` (every environment of the account when null) and registered by
 * then, in bounded batches (fanOut), so a request's cost never grows with the account's endpoints. An event
 * no endpoint subscribes to is not stored at all.
 */
export interface WebhookEventDraft {
  id: string;
  accountId: string;
  environmentId: string | null;
  type: string;
  /** What it is about: erased with the import, the end-user's data, or by retention. */
  importId: string | null;
  endUserId: string | null;
  /** The exact body every attempt sends. */
  payload: string;
  createdAt: string;
}

/** The outcome of one delivery attempt, recorded by the sender that holds its lease. */
export interface DeliveryAttempt {
  endpointId: string;
  eventId: string;
  owner: string;
  at: string;
  ok: boolean;
  statusCode: number | null;
  response: string | null;
  error: string | null;
  /** When to try again after a failure; null: the schedule is over, the delivery has failed. */
  nextAttemptAt: string | null;
  /** A failure disables the endpoint when it has been failing since this time or earlier, giving this reason. */
  disable: { failingSince: string; reason: string };
}

export interface DeliveryClaim {
  now: string;
  owner: string;
  leaseUntil: string;
  limit: number;
  perEndpoint: number;
  perAccount: number;
  /** Attempts the claiming sender has in flight, by endpoint id and by account id: they count against the caps. */
  inFlight: { endpoints: Record<string, number>; accounts: Record<string, number> };
  /** The endpoints looked at (a window of `pendingEndpoints`): the claim's cost follows their number. */
  endpoints: string[];
}

export interface Redelivery {
  due: number;
  disabled: number;
}

/** Who may see an endpoint: the account's, or only one environment's (a Secret Key's own). */
export interface WebhookScope {
  accountId: string;
  environmentId?: string;
}

export interface WebhookStore {
  /**
   * Inserts the endpoint unless its environment or its account holds its cap already, counted and inserted
   * atomically (two concurrent inserts cannot both pass a cap); answers which cap refused it.
   */
  insertEndpoint(row: WebhookEndpointRow, caps: EndpointCaps): Promise<'inserted' | 'environment_full' | 'account_full'>;
  findEndpoint(scope: WebhookScope, id: string): Promise<WebhookEndpointRow | undefined>;
  /** Newest first, by keyset (createdAt, id). */
  pageEndpoints(scope: WebhookScope, after: KeysetPosition | undefined, limit: number): Promise<WebhookEndpointRow[]>;
  countEndpoints(scope: WebhookScope): Promise<number>;
  /** Deletes the endpoint with its deliveries; false when there is none in the scope. */
  deleteEndpoint(scope: WebhookScope, id: string): Promise<boolean>;
  /** The endpoint's deliveries, newest event first, by keyset on the event id (time-ordered). */
  pageDeliveries(endpointId: string, afterEventId: string | undefined, limit: number): Promise<WebhookDeliveryRow[]>;
  countDeliveries(endpointId: string): Promise<number>;
  /**
   * Makes the event's deliveries to active endpoints in the scope (one endpoint's when `endpointId` is given)
   * pending again, due at `at`, with a fresh schedule; answers how many, and how many were left because their
   * endpoint is disabled.
   */
  redeliver(scope: WebhookScope, eventId: string, endpointId: string | undefined, at: string): Promise<Redelivery>;
  /**
   * Takes a lease until `leaseUntil` for `owner` on up to `limit` pending deliveries due at `now` to active
   * endpoints whose lease is free or expired, oldest due first, each endpoint up to `perEndpoint` and each
   * account up to `perAccount` counting the `inFlight` ones, among the claim's `endpoints`, in one statement
   * (PostgreSQL: FOR UPDATE SKIP LOCKED), so two senders never hold the same delivery. Its cost grows with
   * those endpoints, not with a backlog of deliveries.
   */
  claimDue(claim: DeliveryClaim): Promise<ClaimedDelivery[]>;
  /**
   * Up to `limit` ids of endpoints with pending deliveries (due or not), in id order, after `after` (from the
   * first when null), each found by one index seek (webhook_deliveries_endpoint_due): a window for claimDue.
   */
  pendingEndpoints(after: string | null, limit: number): Promise<string[]>;
  /**
   * Records an attempt and releases the lease, unless `owner` no longer holds it (then nothing changes and it
   * answers false). A success marks the delivery delivered for good and clears the endpoint's failure streak;
   * a failure starts or continues the streak, and may disable the endpoint: then its pending deliveries fail.
   */
  recordAttempt(attempt: DeliveryAttempt): Promise<boolean>;
  /** Deletes up to `limit` events created before `cutoff` with their deliveries (retention); returns how many. */
  pruneEvents(cutoff: string, limit: number): Promise<number>;
  /**
   * Makes deliveries of events awaiting fan-out, in one transaction: for each of up to `accounts` accounts
   * after `afterAccount` in id order (round the accounts, so one account's backlog never holds another's
   * events back), up to `batch` deliveries of its oldest such events (fanOutAccount), to their next subscribed
   * endpoints in id order registered by the event's time; an event whose last endpoints were reached is done. PostgreSQL skips
   * events another node is fanning out (FOR UPDATE SKIP LOCKED). Answers the accounts visited and the
   * deliveries made.
   */
  fanOut(afterAccount: string | null, accounts: number, batch: number): Promise<{ accounts: string[]; created: number }>;
}

/**
 * Resumable uploads: their owner and state, so that any node can serve and finish each one (the bytes are in
 * the shared files folder). Processing is claimed under a lease, as imports are written.
 */
export interface UploadStore {
  /**
   * Inserts the upload unless the bytes of the account's unfinished uploads (receiving or processing) and its
   * own would pass `quota` (0: no quota): false then. Counted in the same transaction as the insert.
   */
  insert(row: UploadRow, quota: number): Promise<boolean>;
  find(id: string): Promise<UploadRow | undefined>;
  /**
   * Takes the upload for processing until `until`: one still receiving (its last byte just came), or one whose
   * processor's lease ran out before `now` (a node that died). False when another node holds it or it is done.
   */
  claim(id: string, node: string, now: string, until: string): Promise<boolean>;
  /** Extends `node`'s lease and records the rows processed so far; false when the upload is no longer `node`'s. */
  progress(id: string, node: string, rows: number, until: string): Promise<boolean>;
  /** Ends `node`'s processing as completed (with its import) or failed (with its error); false when not `node`'s. */
  finish(id: string, node: string, end: UploadEnd): Promise<boolean>;
  /** The complete import made of the upload (its `fileId`), if any: a node that died after completing it but before the upload. */
  importOf(accountId: string, uploadId: string): Promise<string | undefined>;
  /** Up to `limit` uploads to look after: processing with a lease run out before `now` (`resume`), receiving past their expiry (`expired`). */
  due(now: string, limit: number): Promise<{ resume: string[]; expired: string[] }>;
  /** Up to `limit` completed uploads whose import is gone (deleted, erased, purged): their files go too. */
  orphaned(limit: number): Promise<string[]>;
  /** The completed upload whose import is `importId` (the import's original file), if any. */
  findByImport(accountId: string, importId: string): Promise<UploadRow | undefined>;
  /** The account's uploads by the end-user not completed into an import (receiving, processing, failed): erased with their data. */
  ofEndUser(accountId: string, endUserId: string): Promise<string[]>;
  /** The id of the upload whose import is `importId`, whatever the account (the import is being removed). */
  ofImport(importId: string): Promise<string | undefined>;
  delete(id: string): Promise<void>;
}

/** How an upload's processing ended. */
export interface UploadEnd {
  status: 'completed' | 'failed';
  importId: string | null;
  error: string | null;
  rows: number;
  now: string;
}

export interface EndpointCaps {
  perEnvironment: number;
  perAccount: number;
}

/**
 * Named leases for work one node at a time should do (retention purges): the row-based equivalent of
 * `pg_try_advisory_lock` that also works over a connection pool and frees itself when its node dies.
 */
export interface LockStore {
  /** Takes or extends the lease `name` until `until` when it is free, ran out before `now`, or is `owner`'s already. */
  tryAcquire(name: string, owner: string, now: string, until: string): Promise<boolean>;
  /** Gives the lease up, if `owner` holds it. */
  release(name: string, owner: string): Promise<void>;
}

/**
 * Per-key request counters of the rate limit, shared by every node on one database (PostgreSQL: one upsert per
 * request; SQLite: one node per file, so they may live in the process).
 */
export interface RateLimitStore {
  /** Counts one request of the key in the window starting at `windowStart` (ms); returns the window's count so far. */
  hit(keyId: string, windowStart: number, windowMs: number): Promise<number>;
}

/** What a change notice is about: the subject is an account id. */
export type NoticeTopic = 'theme';

/** Tells every node that something changed, so the ones watching it (open theme streams) react at once. */
export interface ChangeNotices {
  /** Announces the change to every subscriber of every node, this one included. */
  publish(topic: NoticeTopic, subject: string): Promise<void>;
  /**
   * `notice` is called for each change announced once the returned promise has resolved; `resync` when
   * announcements may have been missed (the notice channel reconnected), so the subscriber re-reads what it
   * watches. Resolves to the unsubscription; rejects when the channel cannot be opened.
   */
  subscribe(topic: NoticeTopic, handlers: { notice(subject: string): void; resync(): void }): Promise<() => void>;
  /**
   * Whether announcements made by other processes arrive (PostgreSQL). When false (SQLite: in-process only, while
   * a CLI process may write the same file), a watcher must also re-read now and then.
   */
  readonly crossProcess: boolean;
  /** Stops listening (at shutdown). */
  close(): Promise<void>;
}

/** Engine operations that are not about one domain. */
export interface StoreAdmin {
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /** Told of a write that failed for want of space (faults.ts `full`): `full()` then answers true until there is room. */
  noteFull(): void;
  /** True while the database has no room to write (readiness answers 503 meanwhile). */
  full(): Promise<boolean>;
  /**
   * A consistent online copy into `file` (which exists, empty); returns the pages copied and an integrity
   * verdict. Absent where the engine's own tool backs up (PostgreSQL: `pg_dump`).
   */
  backup?(file: string): Promise<{ pages: number; check: string }>;
  /** The connection pools and how busy they are, for metrics. Absent where there is none (SQLite). */
  pools?(): PoolFigures[];
}

export interface PoolFigures {
  /** `queries` (every request) or `writers` (imports in progress, each holding one until it completes). */
  pool: string;
  max: number;
  busy: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
}

export interface Store {
  /** This process's identity among the nodes sharing the database. */
  readonly nodeId: string;
  readonly accounts: AccountStore;
  readonly environments: EnvironmentStore;
  readonly templates: TemplateStore;
  readonly imports: ImportStore;
  readonly rows: RowStore;
  readonly sessions: SessionStore;
  readonly themes: ThemeStore;
  readonly settings: SettingStore;
  readonly compliance: ComplianceStore;
  readonly learnedMappings: LearnedMappingStore;
  readonly datasets: DatasetStore;
  readonly webhooks: WebhookStore;
  readonly uploads: UploadStore;
  readonly locks: LockStore;
  readonly rateLimits: RateLimitStore;
  readonly notices: ChangeNotices;
  readonly admin: StoreAdmin;
}
