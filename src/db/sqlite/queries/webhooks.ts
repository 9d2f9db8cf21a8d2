import type Database from 'better-sqlite3';
import { attemptStatus, DISABLED, type ClaimedDelivery, type DeliveryAttempt, type DeliveryClaim, type EndpointCaps, type FanoutEvent, fanOutAccount, fanoutLast, type KeysetPosition, type Redelivery, type WebhookDeliveryRow, type WebhookEndpointRow, type WebhookEventDraft, type WebhookScope } from '../../store';

// Webhooks in raw statements prepared once per connection: the outbox write runs inside every import's
// completion, and the sender claims and records deliveries in a loop. A null parameter means "any" in the
// scope filters (`:environmentId IS NULL OR ...`), so one statement serves the account and the environment.
// The SQL is written out in full in each statement (no text spliced in: test/hardening/sql-injection.test.ts).


function statements(sqlite: Database.Database) {
  return {
    anySubscriber: sqlite.prepare(
      `SELECT 1 FROM webhook_endpoints WHERE account_id = :accountId AND (:environmentId IS NULL OR environment_id = :environmentId) AND active = 1 AND EXISTS (SELECT 1 FROM json_each(events) WHERE value = :type) LIMIT 1`,
    ),
    insertEvent: sqlite.prepare(
      `INSERT INTO webhook_events (id, account_id, environment_id, type, import_id, end_user_id, payload, created_at, fanout_pending)
       VALUES (:id, :accountId, :environmentId, :type, :importId, :endUserId, :payload, :createdAt, 1)`,
    ),
    // The accounts with events awaiting fan-out after :after, each found by one seek in webhook_events_fanout
    // from the one before.
    fanoutAccounts: sqlite.prepare(
      `WITH RECURSIVE waiting(account, n) AS (
         SELECT (SELECT min(account_id) FROM webhook_events WHERE fanout_pending = 1 AND account_id > :after), 1
         UNION ALL
         SELECT (SELECT min(account_id) FROM webhook_events WHERE fanout_pending = 1 AND account_id > waiting.account), n + 1
         FROM waiting WHERE waiting.account IS NOT NULL AND n < :limit + 0)
       SELECT account FROM waiting WHERE account IS NOT NULL`,
    ),
    oldestWaiting: sqlite.prepare(
      `SELECT id, environment_id AS environmentId, type, created_at AS createdAt, fanout_after AS fanoutAfter
       FROM webhook_events WHERE fanout_pending = 1 AND account_id = ? ORDER BY id LIMIT 1`,
    ),
    // The event's next subscribers in id order, registered by its time (a later endpoint never hears of it).
    nextSubscribers: sqlite.prepare(
      `SELECT id FROM webhook_endpoints WHERE account_id = :accountId AND (:environmentId IS NULL OR environment_id = :environmentId) AND active = 1
         AND created_at <= :createdAt AND id > :after AND EXISTS (SELECT 1 FROM json_each(events) WHERE value = :type)
       ORDER BY id LIMIT :batch + 0`,
    ),
    fannedOut: sqlite.prepare('UPDATE webhook_events SET fanout_pending = :pending, fanout_after = :after WHERE id = :id'),
    eraseOfImport: sqlite.prepare('DELETE FROM webhook_events WHERE import_id = ?'),
    eraseOfEndUser: sqlite.prepare('DELETE FROM webhook_events WHERE account_id = ? AND end_user_id = ?'),
    prune: sqlite.prepare('DELETE FROM webhook_events WHERE id IN (SELECT id FROM webhook_events WHERE created_at < ? ORDER BY created_at LIMIT ? + 0)'),
    insertDelivery: sqlite.prepare(
      `INSERT OR IGNORE INTO webhook_deliveries (endpoint_id, event_id, status, attempts, next_attempt_at) VALUES (?, ?, 'pending', 0, ?)`,
    ),
    countInEnvironment: sqlite.prepare('SELECT count(*) AS n FROM webhook_endpoints WHERE environment_id = ?'),
    countInAccount: sqlite.prepare('SELECT count(*) AS n FROM webhook_endpoints WHERE account_id = ?'),
    insertEndpoint: sqlite.prepare(
      `INSERT INTO webhook_endpoints (id, account_id, environment_id, url, description, events, secret, active, created_at)
       VALUES (:id, :accountId, :environmentId, :url, :description, :events, :secret, 1, :createdAt)`,
    ),
    findEndpoint: sqlite.prepare(`SELECT id, account_id AS accountId, environment_id AS environmentId, url, description, events, secret, active,
         disabled_reason AS disabledReason, failing_since AS failingSince, created_at AS createdAt FROM webhook_endpoints WHERE account_id = :accountId AND (:environmentId IS NULL OR environment_id = :environmentId) AND id = :id`),
    pageEndpoints: sqlite.prepare(
      `SELECT id, account_id AS accountId, environment_id AS environmentId, url, description, events, secret, active,
         disabled_reason AS disabledReason, failing_since AS failingSince, created_at AS createdAt FROM webhook_endpoints WHERE account_id = :accountId AND (:environmentId IS NULL OR environment_id = :environmentId)
       AND (:afterValue IS NULL OR (created_at, id) < (:afterValue, :afterId)) ORDER BY created_at DESC, id DESC LIMIT :limit + 0`,
    ),
    countEndpoints: sqlite.prepare(`SELECT count(*) AS n FROM webhook_endpoints WHERE account_id = :accountId AND (:environmentId IS NULL OR environment_id = :environmentId)`),
    deleteEndpoint: sqlite.prepare(`DELETE FROM webhook_endpoints WHERE account_id = :accountId AND (:environmentId IS NULL OR environment_id = :environmentId) AND id = :id`),
    pageDeliveries: sqlite.prepare(
      `SELECT d.endpoint_id AS endpointId, d.event_id AS eventId, e.type, d.status, d.attempts, d.next_attempt_at AS nextAttemptAt,
         d.last_attempt_at AS lastAttemptAt, d.last_status_code AS lastStatusCode, d.last_response AS lastResponse,
         d.last_error AS lastError, e.created_at AS createdAt
       FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
       WHERE d.endpoint_id = :endpointId AND (:after IS NULL OR d.event_id < :after) ORDER BY d.event_id DESC LIMIT :limit + 0`,
    ),
    countDeliveries: sqlite.prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ?'),
    redeliver: sqlite.prepare(
      `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = :at, lease_owner = NULL, lease_expires_at = NULL
       WHERE event_id = :eventId AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE account_id = :accountId AND (:environmentId IS NULL OR environment_id = :environmentId) AND (:endpointId IS NULL OR id = :endpointId) AND active = 1)`,
    ),
    heldByDisabled: sqlite.prepare(
      `SELECT count(*) AS n FROM webhook_deliveries WHERE event_id = :eventId AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE account_id = :accountId AND (:environmentId IS NULL OR environment_id = :environmentId) AND (:endpointId IS NULL OR id = :endpointId) AND active = 0)`,
    ),
    // The endpoints with pending deliveries in id order, each found by one seek in webhook_deliveries_endpoint_due
    // from the one before (a loose index scan): idle endpoints cost nothing, and a window's cost is bounded
    // however many endpoints have deliveries pending.
    pendingEndpoints: sqlite.prepare(
      `WITH RECURSIVE pending(id, n) AS (
         SELECT (SELECT min(endpoint_id) FROM webhook_deliveries WHERE status = 'pending' AND endpoint_id > :after), 1
         UNION ALL
         SELECT (SELECT min(endpoint_id) FROM webhook_deliveries WHERE status = 'pending' AND endpoint_id > pending.id), n + 1
         FROM pending WHERE pending.id IS NOT NULL AND n < :limit + 0)
       SELECT id FROM pending WHERE id IS NOT NULL`,
    ),
    // Endpoint by endpoint among the window's, each one's oldest due deliveries through
    // webhook_deliveries_endpoint_due (SQLite has no LATERAL: a correlated scalar subquery per endpoint gathers
    // their rowids as a JSON array), so one endpoint's backlog is never scanned whole. An endpoint gives what its
    // cap leaves beside its attempts in flight (the array's first `key`s: its oldest), then each account what
    // its own cap leaves (row_number over the account's candidates, oldest first).
    claim: sqlite.prepare(
      `UPDATE webhook_deliveries SET lease_owner = :owner, lease_expires_at = :leaseUntil
       WHERE rowid IN (
         WITH pending(id) AS (SELECT value FROM json_each(:endpoints)),
         due(id, at, n, account) AS (
           SELECT d.rowid, d.next_attempt_at, row_number() OVER (PARTITION BY p.account_id ORDER BY d.next_attempt_at, d.rowid), p.account_id
           FROM pending, webhook_endpoints p, json_each((
               SELECT json_group_array(due.id) FROM (
                 SELECT x.rowid AS id FROM webhook_deliveries x
                 WHERE x.endpoint_id = p.id AND x.status = 'pending' AND x.next_attempt_at <= :now AND (x.lease_expires_at IS NULL OR x.lease_expires_at <= :now)
                 ORDER BY x.next_attempt_at LIMIT :perEndpoint + 0) due)) picked, webhook_deliveries d
           WHERE p.id = pending.id AND p.active = 1 AND d.rowid = picked.value
             AND picked.key < :perEndpoint - coalesce(json_extract(:endpointsInFlight, '$."' || p.id || '"'), 0))
         SELECT id FROM due WHERE n <= :perAccount - coalesce(json_extract(:accountsInFlight, '$."' || account || '"'), 0)
         ORDER BY n, at LIMIT :limit + 0)
       RETURNING endpoint_id AS endpointId, event_id AS eventId, attempts`,
    ),
    claimed: sqlite.prepare(
      `SELECT p.account_id AS accountId, p.url, p.secret, e.payload FROM webhook_endpoints p, webhook_events e WHERE p.id = ? AND e.id = ?`,
    ),
    active: sqlite.prepare('SELECT active FROM webhook_endpoints WHERE id = ?'),
    record: sqlite.prepare(
      `UPDATE webhook_deliveries SET status = :status, attempts = attempts + 1, next_attempt_at = :nextAttemptAt, last_attempt_at = :at,
         last_status_code = :statusCode, last_response = :response, last_error = :error, lease_owner = NULL, lease_expires_at = NULL
       WHERE endpoint_id = :endpointId AND event_id = :eventId AND lease_owner = :owner AND status <> 'delivered'`,
    ),
    succeeded: sqlite.prepare('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ?'),
    failed: sqlite.prepare('UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ?) WHERE id = ?'),
    disable: sqlite.prepare('UPDATE webhook_endpoints SET active = 0, disabled_reason = ? WHERE id = ? AND active = 1 AND failing_since <= ?'),
    failPending: sqlite.prepare(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = coalesce(last_error, ?) WHERE endpoint_id = ? AND status = 'pending'`,
    ),
  };
}

type Statements = ReturnType<typeof statements>;
const cache = new WeakMap<Database.Database, Statements>();

function prepared(sqlite: Database.Database): Statements {
  let found = cache.get(sqlite);
  if (!found) cache.set(sqlite, (found = statements(sqlite)));
  return found;
}

const scopeValues = (scope: WebhookScope) => ({ accountId: scope.accountId, environmentId: scope.environmentId ?? null });

type StoredEndpoint = Omit<WebhookEndpointRow, 'events' | 'active'> & { events: string; active: number };
const toEndpoint = (row: StoredEndpoint): WebhookEndpointRow => ({ ...row, events: JSON.parse(row.events) as string[], active: row.active === 1 });

/** Writes the event once, for the sender to fan out (inside the caller's transaction); nothing without subscribers. */
export function writeWebhookEvent(sqlite: Database.Database, event: WebhookEventDraft): void {
  const s = prepared(sqlite);
  const { id, accountId, environmentId, type, importId, endUserId, payload, createdAt } = event;
  if (!s.anySubscriber.get({ accountId, environmentId, type })) return;
  s.insertEvent.run({ id, accountId, environmentId, type, importId, endUserId, payload, createdAt });
}

/** WebhookStore.fanOut (inside the caller's transaction). */
export function fanOut(sqlite: Database.Database, afterAccount: string | null, accounts: number, batch: number): { accounts: string[]; created: number } {
  const s = prepared(sqlite);
  // '' sorts before every id: the first seek stays an index seek.
  const visited = (s.fanoutAccounts.all({ after: afterAccount ?? '', limit: accounts }) as { account: string }[]).map((row) => row.account);
  let created = 0;
  for (const accountId of visited) {
    fanOutAccount(batch, (budget) => {
      const event = s.oldestWaiting.get(accountId) as FanoutEvent | undefined;
      if (!event) return undefined;
      const { environmentId, type, createdAt } = event;
      const endpoints = s.nextSubscribers.all({ accountId, environmentId, type, createdAt, after: event.fanoutAfter ?? '', batch: budget }) as { id: string }[];
      for (const endpoint of endpoints) created += s.insertDelivery.run(endpoint.id, event.id, createdAt).changes;
      const last = fanoutLast(endpoints, budget);
      s.fannedOut.run({ id: event.id, pending: last === null ? 0 : 1, after: last });
      return endpoints.length;
    });
  }
  return { accounts: visited, created };
}

/** Deletes the events about an import, with their deliveries (inside the caller's transaction). */
export function eraseEventsOfImport(sqlite: Database.Database, importId: string): void {
  prepared(sqlite).eraseOfImport.run(importId);
}

/** Deletes the events about an end-user of the account, with their deliveries (inside the caller's transaction). */
export function eraseEventsOfEndUser(sqlite: Database.Database, accountId: string, endUserId: string): void {
  prepared(sqlite).eraseOfEndUser.run(accountId, endUserId);
}

export function pruneEvents(sqlite: Database.Database, cutoff: string, limit: number): number {
  return prepared(sqlite).prune.run(cutoff, limit).changes;
}

/** Inserts the endpoint unless its environment or account holds its cap (inside the caller's write transaction). */
export function insertEndpointBelow(sqlite: Database.Database, row: WebhookEndpointRow, caps: EndpointCaps): 'inserted' | 'environment_full' | 'account_full' {
  const s = prepared(sqlite);
  if ((s.countInEnvironment.get(row.environmentId) as { n: number }).n >= caps.perEnvironment) return 'environment_full';
  if ((s.countInAccount.get(row.accountId) as { n: number }).n >= caps.perAccount) return 'account_full';
  s.insertEndpoint.run({ ...row, events: JSON.stringify(row.events) });
  return 'inserted';
}

export function findEndpoint(sqlite: Database.Database, scope: WebhookScope, id: string): WebhookEndpointRow | undefined {
  const row = prepared(sqlite).findEndpoint.get({ ...scopeValues(scope), id }) as StoredEndpoint | undefined;
  return row && toEndpoint(row);
}

export function pageEndpoints(sqlite: Database.Database, scope: WebhookScope, after: KeysetPosition | undefined, limit: number): WebhookEndpointRow[] {
  const rows = prepared(sqlite).pageEndpoints.all({ ...scopeValues(scope), afterValue: after?.value ?? null, afterId: after?.id ?? null, limit });
  return (rows as StoredEndpoint[]).map(toEndpoint);
}

export function countEndpoints(sqlite: Database.Database, scope: WebhookScope): number {
  return (prepared(sqlite).countEndpoints.get(scopeValues(scope)) as { n: number }).n;
}

export function deleteEndpoint(sqlite: Database.Database, scope: WebhookScope, id: string): boolean {
  return prepared(sqlite).deleteEndpoint.run({ ...scopeValues(scope), id }).changes === 1;
}

export function pageDeliveries(sqlite: Database.Database, endpointId: string, after: string | undefined, limit: number): WebhookDeliveryRow[] {
  return prepared(sqlite).pageDeliveries.all({ endpointId, after: after ?? null, limit }) as WebhookDeliveryRow[];
}

export function countDeliveries(sqlite: Database.Database, endpointId: string): number {
  return (prepared(sqlite).countDeliveries.get(endpointId) as { n: number }).n;
}

export function redeliver(sqlite: Database.Database, scope: WebhookScope, eventId: string, endpointId: string | undefined, at: string): Redelivery {
  const s = prepared(sqlite);
  const target = { ...scopeValues(scope), eventId, endpointId: endpointId ?? null };
  return { due: s.redeliver.run({ ...target, at }).changes, disabled: (s.heldByDisabled.get(target) as { n: number }).n };
}

/** Leases due deliveries and reads what sending them needs (inside the caller's transaction). */
export function claimDue(sqlite: Database.Database, claim: DeliveryClaim): ClaimedDelivery[] {
  const s = prepared(sqlite);
  const { now, owner, leaseUntil, limit, perEndpoint, perAccount, inFlight } = claim;
  const leased = s.claim.all({
    now, owner, leaseUntil, limit, perEndpoint, perAccount,
    endpoints: JSON.stringify(claim.endpoints),
    endpointsInFlight: JSON.stringify(inFlight.endpoints),
    accountsInFlight: JSON.stringify(inFlight.accounts),
  }) as { endpointId: string; eventId: string; attempts: number }[];
  return leased.map((row) => ({ ...row, ...(s.claimed.get(row.endpointId, row.eventId) as { accountId: string; url: string; secret: string; payload: string }) }));
}

export function pendingEndpoints(sqlite: Database.Database, after: string | null, limit: number): string[] {
  // '' sorts before every id: the first seek stays an index seek (an OR with IS NULL would not).
  return (prepared(sqlite).pendingEndpoints.all({ after: after ?? '', limit }) as { id: string }[]).map((row) => row.id);
}

/** Records an attempt by the lease holder and updates the endpoint's failure streak (inside the caller's transaction). */
export function recordAttempt(sqlite: Database.Database, attempt: DeliveryAttempt): boolean {
  const s = prepared(sqlite);
  const { endpointId, eventId, owner, at, statusCode, response, error } = attempt;
  const active = (s.active.get(endpointId) as { active: number } | undefined)?.active === 1;
  const status = attemptStatus(attempt, active);
  const nextAttemptAt = status === 'pending' ? attempt.nextAttemptAt : null;
  if (s.record.run({ endpointId, eventId, owner, at, statusCode, response, error, status, nextAttemptAt }).changes === 0) return false;
  if (attempt.ok) {
    s.succeeded.run(endpointId);
  } else {
    s.failed.run(at, endpointId);
    if (s.disable.run(attempt.disable.reason, endpointId, attempt.disable.failingSince).changes === 1) s.failPending.run(DISABLED, endpointId);
  }
  return true;
}
