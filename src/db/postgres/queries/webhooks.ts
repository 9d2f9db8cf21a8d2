import { sql } from 'drizzle-orm';
import { attemptStatus, DISABLED, type ClaimedDelivery, type DeliveryAttempt, type DeliveryClaim, type EndpointCaps, type FanoutEvent, fanOutAccountAsync, fanoutLast, type KeysetPosition, type Redelivery, type WebhookDeliveryRow, type WebhookEndpointRow, type WebhookEventDraft, type WebhookScope } from '../../store';
import type { PgExecutor } from '../open-database';

// The same statements as src/db/sqlite/queries/webhooks.ts in PostgreSQL's words: every value a parameter
// (drizzle's sql template), a null scope parameter meaning "any", the claim by FOR UPDATE SKIP LOCKED.

const inScope = (scope: WebhookScope) =>
  sql`account_id = ${scope.accountId} AND (${scope.environmentId ?? null}::text IS NULL OR environment_id = ${scope.environmentId ?? null})`;

const endpointColumns = sql`id, account_id AS "accountId", environment_id AS "environmentId", url, description, events, secret, active,
  disabled_reason AS "disabledReason", failing_since AS "failingSince", created_at AS "createdAt"`;

type StoredEndpoint = Omit<WebhookEndpointRow, 'events'> & { events: string };
const toEndpoint = (row: StoredEndpoint): WebhookEndpointRow => ({ ...row, events: JSON.parse(row.events) as string[] });

async function rows<T>(db: PgExecutor, query: ReturnType<typeof sql>): Promise<T[]> {
  return (await db.execute(query)).rows as T[];
}

/** Writes the event once, for the sender to fan out; nothing without subscribers. */
export async function writeWebhookEvent(db: PgExecutor, event: WebhookEventDraft): Promise<void> {
  const { id, accountId, environmentId, type, importId, endUserId, payload, createdAt } = event;
  await db.execute(sql`
    INSERT INTO webhook_events (id, account_id, environment_id, type, import_id, end_user_id, payload, created_at, fanout_pending)
    SELECT ${id}, ${accountId}, ${environmentId}, ${type}, ${importId}, ${endUserId}, ${payload}, ${createdAt}, true
    WHERE EXISTS (
      SELECT 1 FROM webhook_endpoints
      WHERE account_id = ${accountId} AND (${environmentId}::text IS NULL OR environment_id = ${environmentId}) AND active
        AND events::jsonb @> jsonb_build_array(${type}::text))`);
}

/** WebhookStore.fanOut (inside the caller's transaction). */
export async function fanOut(tx: PgExecutor, afterAccount: string | null, accounts: number, batch: number): Promise<{ accounts: string[]; created: number }> {
  // Each account with events awaiting fan-out found by one seek in webhook_events_fanout from the one before.
  const visited = (
    await rows<{ account: string }>(
      tx,
      sql`WITH RECURSIVE waiting(account, n) AS (
            SELECT (SELECT min(account_id) FROM webhook_events WHERE fanout_pending AND account_id > ${afterAccount ?? ''}), 1
            UNION ALL
            SELECT (SELECT min(account_id) FROM webhook_events WHERE fanout_pending AND account_id > waiting.account), n + 1
            FROM waiting WHERE waiting.account IS NOT NULL AND n < ${accounts}
          )
          SELECT account FROM waiting WHERE account IS NOT NULL`,
    )
  ).map((row) => row.account);
  let created = 0;
  for (const accountId of visited) {
    await fanOutAccountAsync(batch, async (budget) => {
      // Locked: another node's fan-out skips it and takes the account's next event.
      const [event] = await rows<FanoutEvent>(
        tx,
        sql`SELECT id, environment_id AS "environmentId", type, created_at AS "createdAt", fanout_after AS "fanoutAfter"
            FROM webhook_events WHERE fanout_pending AND account_id = ${accountId} ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      if (!event) return undefined;
      const { id, environmentId, type, createdAt } = event;
      const endpoints = await rows<{ id: string; made: number }>(
        tx,
        sql`WITH next AS (
              SELECT id FROM webhook_endpoints
              WHERE account_id = ${accountId} AND (${environmentId}::text IS NULL OR environment_id = ${environmentId}) AND active
                AND created_at <= ${createdAt} AND id > ${event.fanoutAfter ?? ''} AND events::jsonb @> jsonb_build_array(${type}::text)
              ORDER BY id LIMIT ${budget}
            ), made AS (
              INSERT INTO webhook_deliveries (endpoint_id, event_id, status, attempts, next_attempt_at)
              SELECT next.id, ${id}, 'pending', 0, ${createdAt} FROM next
              ON CONFLICT DO NOTHING RETURNING 1
            )
            SELECT id, (SELECT count(*) FROM made)::int AS made FROM next ORDER BY id`,
      );
      created += endpoints[0]?.made ?? 0;
      const last = fanoutLast(endpoints, budget);
      await tx.execute(sql`UPDATE webhook_events SET fanout_pending = ${last !== null}, fanout_after = ${last} WHERE id = ${id}`);
      return endpoints.length;
    });
  }
  return { accounts: visited, created };
}

export async function eraseEventsOfImport(db: PgExecutor, importId: string): Promise<void> {
  await db.execute(sql`DELETE FROM webhook_events WHERE import_id = ${importId}`);
}

export async function eraseEventsOfEndUser(db: PgExecutor, accountId: string, endUserId: string): Promise<void> {
  await db.execute(sql`DELETE FROM webhook_events WHERE account_id = ${accountId} AND end_user_id = ${endUserId}`);
}

export async function pruneEvents(db: PgExecutor, cutoff: string, limit: number): Promise<number> {
  const result = await db.execute(
    sql`DELETE FROM webhook_events WHERE id IN (SELECT id FROM webhook_events WHERE created_at < ${cutoff} ORDER BY created_at LIMIT ${limit})`,
  );
  return result.rowCount ?? 0;
}

/**
 * Inserts the endpoint unless its environment or account holds its cap; the account's row is locked first,
 * so two inserts of the account count in turn.
 */
export async function insertEndpointBelow(tx: PgExecutor, row: WebhookEndpointRow, caps: EndpointCaps): Promise<'inserted' | 'environment_full' | 'account_full'> {
  await tx.execute(sql`SELECT id FROM accounts WHERE id = ${row.accountId} FOR UPDATE`);
  const [counted] = await rows<{ environment: number; account: number }>(
    tx,
    sql`SELECT count(*) FILTER (WHERE environment_id = ${row.environmentId})::int AS environment, count(*)::int AS account
        FROM webhook_endpoints WHERE account_id = ${row.accountId}`,
  );
  if ((counted?.environment ?? 0) >= caps.perEnvironment) return 'environment_full';
  if ((counted?.account ?? 0) >= caps.perAccount) return 'account_full';
  await tx.execute(sql`
    INSERT INTO webhook_endpoints (id, account_id, environment_id, url, description, events, secret, active, created_at)
    VALUES (${row.id}, ${row.accountId}, ${row.environmentId}, ${row.url}, ${row.description}, ${JSON.stringify(row.events)}, ${row.secret}, true, ${row.createdAt})`);
  return 'inserted';
}

export async function findEndpoint(db: PgExecutor, scope: WebhookScope, id: string): Promise<WebhookEndpointRow | undefined> {
  const [row] = await rows<StoredEndpoint>(db, sql`SELECT ${endpointColumns} FROM webhook_endpoints WHERE ${inScope(scope)} AND id = ${id}`);
  return row && toEndpoint(row);
}

export async function pageEndpoints(db: PgExecutor, scope: WebhookScope, after: KeysetPosition | undefined, limit: number): Promise<WebhookEndpointRow[]> {
  const beyond = after ? sql`AND (created_at, id) < (${after.value}, ${after.id})` : sql``;
  const found = await rows<StoredEndpoint>(
    db,
    sql`SELECT ${endpointColumns} FROM webhook_endpoints WHERE ${inScope(scope)} ${beyond} ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
  );
  return found.map(toEndpoint);
}

export async function countEndpoints(db: PgExecutor, scope: WebhookScope): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM webhook_endpoints WHERE ${inScope(scope)}`);
  return row?.n ?? 0;
}

export async function deleteEndpoint(db: PgExecutor, scope: WebhookScope, id: string): Promise<boolean> {
  return ((await db.execute(sql`DELETE FROM webhook_endpoints WHERE ${inScope(scope)} AND id = ${id}`)).rowCount ?? 0) === 1;
}

export async function pageDeliveries(db: PgExecutor, endpointId: string, after: string | undefined, limit: number): Promise<WebhookDeliveryRow[]> {
  const beyond = after === undefined ? sql`` : sql`AND d.event_id < ${after}`;
  return await rows<WebhookDeliveryRow>(
    db,
    sql`SELECT d.endpoint_id AS "endpointId", d.event_id AS "eventId", e.type, d.status, d.attempts, d.next_attempt_at AS "nextAttemptAt",
          d.last_attempt_at AS "lastAttemptAt", d.last_status_code AS "lastStatusCode", d.last_response AS "lastResponse",
          d.last_error AS "lastError", e.created_at AS "createdAt"
        FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.endpoint_id = ${endpointId} ${beyond} ORDER BY d.event_id DESC LIMIT ${limit}`,
  );
}

export async function countDeliveries(db: PgExecutor, endpointId: string): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = ${endpointId}`);
  return row?.n ?? 0;
}

export async function redeliver(db: PgExecutor, scope: WebhookScope, eventId: string, endpointId: string | undefined, at: string): Promise<Redelivery> {
  const [counts] = await rows<Redelivery>(
    db,
    sql`WITH targets AS (
          SELECT id, active FROM webhook_endpoints WHERE ${inScope(scope)} AND (${endpointId ?? null}::text IS NULL OR id = ${endpointId ?? null})
        ), due AS (
          UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = ${at}, lease_owner = NULL, lease_expires_at = NULL
          WHERE event_id = ${eventId} AND endpoint_id IN (SELECT id FROM targets WHERE active)
          RETURNING 1
        )
        SELECT (SELECT count(*) FROM due)::int AS due,
          (SELECT count(*) FROM webhook_deliveries WHERE event_id = ${eventId} AND endpoint_id IN (SELECT id FROM targets WHERE NOT active))::int AS disabled`,
  );
  return counts!;
}

/**
 * Leases due deliveries in one statement: rows another sender is claiming right now are skipped (SKIP
 * LOCKED), so concurrent claims on several nodes never return the same delivery.
 */
export async function claimDue(db: PgExecutor, claim: DeliveryClaim): Promise<ClaimedDelivery[]> {
  const { now, owner, leaseUntil, limit, perEndpoint, perAccount, inFlight } = claim;
  // Endpoint by endpoint among the window's (LATERAL through webhook_deliveries_endpoint_due), so one
  // endpoint's backlog is never scanned whole; rows another sender is claiming are skipped, rows picked beyond a
  // cap only locked. OFFSET 0 keeps each endpoint a lookup by id: the planner guesses 100 rows for `pending`
  // and would otherwise hash it against a scan of every endpoint (2.3 ms at 10 000). An endpoint gives what its cap
  // leaves beside its attempts in flight, each account what its own cap leaves (row_number, oldest first). The
  // LATERAL's LIMIT stays a constant: one computed per endpoint made the planner expect 20 000 rows an endpoint,
  // and the cost it saw switched JIT compilation on (a claim took 410 ms instead of 1.4).
  // The in-flight counts go as JSON parameters: drizzle spreads an array into a list, and an empty one is not SQL.
  return await rows<ClaimedDelivery>(
    db,
    sql`WITH pending(id) AS (SELECT jsonb_array_elements_text(${JSON.stringify(claim.endpoints)}::jsonb))
        UPDATE webhook_deliveries d SET lease_owner = ${owner}, lease_expires_at = ${leaseUntil}
        FROM (
          SELECT endpoint_id, event_id, next_attempt_at FROM (
            SELECT endpoint_id, event_id, next_attempt_at, account_id,
              row_number() OVER (PARTITION BY account_id ORDER BY next_attempt_at, event_id) AS n
            FROM (
              SELECT due.endpoint_id, due.event_id, due.next_attempt_at, p2.account_id,
                row_number() OVER (PARTITION BY due.endpoint_id ORDER BY due.next_attempt_at, due.event_id) AS ne
              FROM pending
              CROSS JOIN LATERAL (SELECT id, account_id, active FROM webhook_endpoints WHERE id = pending.id OFFSET 0) p2
              CROSS JOIN LATERAL (
                SELECT d2.endpoint_id, d2.event_id, d2.next_attempt_at FROM webhook_deliveries d2
                WHERE d2.endpoint_id = p2.id AND d2.status = 'pending' AND d2.next_attempt_at <= ${now}
                  AND (d2.lease_expires_at IS NULL OR d2.lease_expires_at <= ${now})
                ORDER BY d2.next_attempt_at LIMIT ${perEndpoint}
                FOR UPDATE SKIP LOCKED
              ) due
              WHERE p2.active
            ) by_endpoint
            WHERE ne <= ${perEndpoint}::int - COALESCE((${JSON.stringify(inFlight.endpoints)}::jsonb ->> endpoint_id)::int, 0)
          ) ranked
          WHERE n <= ${perAccount}::int - COALESCE((${JSON.stringify(inFlight.accounts)}::jsonb ->> account_id)::int, 0)
          ORDER BY n, next_attempt_at LIMIT ${limit}
        ) picked, webhook_endpoints p, webhook_events e
        WHERE d.endpoint_id = picked.endpoint_id AND d.event_id = picked.event_id AND p.id = d.endpoint_id AND e.id = d.event_id
        RETURNING p.account_id AS "accountId", d.endpoint_id AS "endpointId", d.event_id AS "eventId", d.attempts, p.url, p.secret, e.payload`,
  );
}

/**
 * The endpoints with pending deliveries in id order after `after`, each found by one seek in
 * webhook_deliveries_endpoint_due from the one before (a loose index scan): idle endpoints cost nothing.
 */
export async function pendingEndpoints(db: PgExecutor, after: string | null, limit: number): Promise<string[]> {
  // '' sorts before every id: the first seek stays an index seek.
  const found = await rows<{ id: string }>(
    db,
    sql`WITH RECURSIVE pending(id, n) AS (
          SELECT (SELECT min(endpoint_id) FROM webhook_deliveries WHERE status = 'pending' AND endpoint_id > ${after ?? ''}), 1
          UNION ALL
          SELECT (SELECT min(endpoint_id) FROM webhook_deliveries WHERE status = 'pending' AND endpoint_id > pending.id), n + 1
          FROM pending WHERE pending.id IS NOT NULL AND n < ${limit}
        )
        SELECT id FROM pending WHERE id IS NOT NULL`,
  );
  return found.map((row) => row.id);
}

/** Records an attempt by the lease holder and updates the endpoint's failure streak (inside the caller's transaction). */
export async function recordAttempt(tx: PgExecutor, attempt: DeliveryAttempt): Promise<boolean> {
  const { endpointId, eventId, owner, at, statusCode, response, error } = attempt;
  // The endpoint's row is locked first: attempts of one endpoint record one after the other, so one that
  // follows a disabling sees it (READ COMMITTED re-reads the row once the lock is granted).
  const [endpoint] = await rows<{ active: boolean }>(tx, sql`SELECT active FROM webhook_endpoints WHERE id = ${endpointId} FOR NO KEY UPDATE`);
  const status = attemptStatus(attempt, endpoint?.active === true);
  const nextAttemptAt = status === 'pending' ? attempt.nextAttemptAt : null;
  const recorded = await tx.execute(sql`
    UPDATE webhook_deliveries SET status = ${status}, attempts = attempts + 1, next_attempt_at = ${nextAttemptAt}, last_attempt_at = ${at},
      last_status_code = ${statusCode}, last_response = ${response}, last_error = ${error}, lease_owner = NULL, lease_expires_at = NULL
    WHERE endpoint_id = ${endpointId} AND event_id = ${eventId} AND lease_owner = ${owner} AND status <> 'delivered'`);
  if ((recorded.rowCount ?? 0) === 0) return false;
  if (attempt.ok) {
    await tx.execute(sql`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ${endpointId}`);
  } else {
    await tx.execute(sql`UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ${at}) WHERE id = ${endpointId}`);
    const disabled = await tx.execute(sql`
      UPDATE webhook_endpoints SET active = false, disabled_reason = ${attempt.disable.reason}
      WHERE id = ${endpointId} AND active AND failing_since <= ${attempt.disable.failingSince}`);
    if ((disabled.rowCount ?? 0) === 1) {
      await tx.execute(sql`
        UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = coalesce(last_error, ${DISABLED})
        WHERE endpoint_id = ${endpointId} AND status = 'pending'`);
    }
  }
  return true;
}
