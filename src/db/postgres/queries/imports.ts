import type pg from 'pg';
import { and, asc, count, desc, eq, getTableColumns, gte, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { IMPORT_LIST_COLUMNS, type CompletedValues, type ImportFilters, type ImportListRow, type ImportRow, type NewImportRow, type ImportSummaryRow, type ImportViewRow, type PageQuery, type ReviewDecision } from '../../store';
import { columnsOf } from '../../columns';
import type { PgExecutor } from '../open-database';
import { environments, importCounts, importRows, imports } from '../schema';
import { cachedStatement } from '../../statement-cache';

export async function insertImport(db: PgExecutor, row: NewImportRow): Promise<void> {
  await db.insert(imports).values(row);
}

/** The import is still being written by `writerNode` (not hidden, not taken over by a clean-up). */
const writtenBy = (id: string, writerNode: string) => and(eq(imports.id, id), eq(imports.status, 'writing'), eq(imports.writerNode, writerNode));

/** An unfinished import nobody holds: no writer (hidden for deletion), or a lease that ran out. */
const unheld = (now: string) => and(eq(imports.status, 'writing'), or(isNull(imports.leaseUntil), lte(imports.leaseUntil, now)));

/** Makes a written import visible in one statement; false when it is no longer this writer's. */
export async function completeImport(
  db: PgExecutor,
  id: string,
  writerNode: string,
  values: CompletedValues,
): Promise<boolean> {
  const result = await db
    .update(imports)
    .set({ ...values, status: 'complete', writerNode: null, leaseUntil: null })
    .where(writtenBy(id, writerNode));
  return result.rowCount === 1;
}

/** A reviewer's decision on a pending complete import of the account, in one statement (as SQLite's reviewImport). */
export async function reviewImport(db: PgExecutor, accountId: string, id: string, decision: ReviewDecision): Promise<ImportViewRow | undefined> {
  const [row] = await db
    .update(imports)
    .set({ reviewStatus: decision.status, reviewedAt: decision.at, reviewReason: decision.reason, updatedAt: decision.at })
    .where(and(eq(imports.accountId, accountId), eq(imports.id, id), eq(imports.status, 'complete'), eq(imports.reviewStatus, 'pending_review')))
    .returning(importViewColumns);
  return row;
}

/** A complete import's summary of invalid cells (null: none; undefined: no such import). */
export async function findErrorSummary(db: PgExecutor, accountId: string, id: string): Promise<string | null | undefined> {
  const [row] = await db.select({ summary: imports.errorSummary }).from(imports).where(and(eq(imports.accountId, accountId), eq(imports.id, id), eq(imports.status, 'complete')));
  return row?.summary;
}

export async function renewImportLease(db: PgExecutor, id: string, writerNode: string, until: string): Promise<boolean> {
  return (await db.update(imports).set({ leaseUntil: until }).where(writtenBy(id, writerNode))).rowCount === 1;
}

/**
 * Takes over unfinished imports nobody holds, in one statement; rows another node is claiming are skipped. The
 * lock taken is the one the claim's update needs (no key update), which a stalled writer's open batch of rows
 * (row-copies.ts, key share) does not block: its import is still taken over.
 */
export async function claimAbandonedImports(db: PgExecutor, node: string, now: string, until: string, limit: number): Promise<string[]> {
  const ids = db.select({ id: imports.id }).from(imports).where(unheld(now)).limit(limit).for('no key update', { skipLocked: true });
  const rows = await db.update(imports).set({ writerNode: node, leaseUntil: until }).where(inArray(imports.id, ids)).returning({ id: imports.id });
  return rows.map((row) => row.id);
}

/** Takes one unfinished import for removal, unless another node holds it. */
export async function claimImport(db: PgExecutor, id: string, node: string, now: string, until: string): Promise<boolean> {
  const mine = and(eq(imports.status, 'writing'), eq(imports.writerNode, node));
  const result = await db
    .update(imports)
    .set({ writerNode: node, leaseUntil: until })
    .where(and(eq(imports.id, id), or(unheld(now), mine)));
  return result.rowCount === 1;
}

/** Hides imports for deletion in one statement (status 'writing' with no writer); returns their ids. */
export async function hideImports(db: PgExecutor, where: SQL): Promise<string[]> {
  const rows = await db.update(imports).set({ status: 'writing', writerNode: null, leaseUntil: null }).where(where).returning({ id: imports.id });
  return rows.map((row) => row.id);
}

/**
 * Deletes the import row, then whatever rows removal left. A writer still streaming rows into it (from another
 * node) locks the row while a batch of its rows is open (row-copies.ts): the deletion waits for that batch to
 * commit, then deletes its rows as well, or gives up after DELETE_LOCK_TIMEOUT so a clean-up never hangs
 * behind a stalled node (the writer sees its lease lost and drops the batch; the next clean-up tries again).
 */
export async function deleteImport(db: PgExecutor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('lock_timeout', ${DELETE_LOCK_TIMEOUT}, true)`);
    await tx.delete(imports).where(eq(imports.id, id));
    // Rows have no foreign key to cascade from (schema.ts says why): whatever removal left goes here, read
    // after the import row was locked, so a batch committed meanwhile is included.
    await tx.delete(importRows).where(eq(importRows.importId, id));
    // What applying it to a dataset recorded (no foreign keys either); the dataset itself is not rewritten.
    await tx.execute(sql`WITH applied AS (DELETE FROM applied_imports WHERE import_id = ${id} RETURNING id) DELETE FROM import_changes WHERE applied_id IN (SELECT id FROM applied)`);
    await tx.execute(sql`DELETE FROM import_missing WHERE import_id = ${id}`);
  });
}

const DELETE_LOCK_TIMEOUT = '2s';

// An ImportRow's columns: not `bytes`, which only the account's counter reads (import-quota.ts), nor the error
// summary, which only GET /imports/{id}/errors reads (findErrorSummary).
const { bytes: _bytes, errorSummary: _summary, ...importColumns } = getTableColumns(imports);
const { originalSchema: _schema, ...importViewColumns } = importColumns;

export async function findImport(db: PgExecutor, accountId: string, id: string): Promise<ImportRow | undefined> {
  const rows = await db
    .select(importColumns)
    .from(imports)
    .where(and(eq(imports.accountId, accountId), eq(imports.id, id), eq(imports.status, 'complete')))
    .limit(1);
  return rows[0];
}

// A list item's columns (ImportListRow): not the originalSchema or statistics (up to 1 MiB each).
const listColumns = columnsOf(imports, IMPORT_LIST_COLUMNS);

// Every detail and rows read: a named statement of the columns they need (see findApiKeyByHash).
const IMPORT_VIEW = `SELECT id, account_id AS "accountId", environment_id AS "environmentId", template_id AS "templateId", status,
  writer_node AS "writerNode", lease_until AS "leaseUntil", meta, file, file_id AS "fileId", end_user_id AS "endUserId",
  end_user_email AS "endUserEmail", end_user_ip AS "endUserIp", imported_from AS "importedFrom", session_jti AS "sessionJti",
  row_count AS "rowCount", cell_stats AS "cellStats", created_at AS "createdAt", updated_at AS "updatedAt",
  review_status AS "reviewStatus", reviewed_at AS "reviewedAt", review_reason AS "reviewReason", mode, changes
  FROM imports WHERE account_id = $1 AND id = $2 AND status = 'complete'`;

/** A complete import of the account, all but its originalSchema (the detail and rows reads). */
export async function findImportView(pool: pg.Pool, accountId: string, id: string): Promise<ImportViewRow | undefined> {
  return (await pool.query<ImportViewRow>({ name: 'import-view', text: IMPORT_VIEW, values: [accountId, id] })).rows[0];
}

// Building a query with drizzle costs more than running it: each query shape (sort, direction, cursor or not,
// which filters are set) is built once with placeholders and prepared under a name of its own (node-postgres
// parses it once per connection); a request only binds its values. As SQLite's queries/imports.ts.
type QueryValues = { accountId: string; afterValue?: string; afterId?: string; environmentId?: string } & { [K in keyof ImportFilters]?: string };
type Prepared<T> = { execute(values: QueryValues & { limit?: number }): Promise<T[]> };
const FILTER_KEYS = ['templateId', 'startDate', 'endDate', 'userEmail', 'environment', 'status'] as const;
const filterShape = (filters: ImportFilters, named: string[] | undefined) =>
  FILTER_KEYS.map((key) => (filters[key] ? 1 : 0)).join('') + (named?.length === 1 ? 'e' : '') + (filters.status === 'completed' ? 'c' : '');
const placeholder = (name: keyof QueryValues | 'limit') => sql.placeholder(name);
/** A prepared statement's name (not SQL): one per query shape, a string of our own (no request value). */
const statementName = (query: string, shape: string) => `${query}-${shape}`;
const pageStatements = new WeakMap<PgExecutor, Map<string, Prepared<ImportListRow>>>();
const countStatements = new WeakMap<PgExecutor, Map<string, Prepared<{ n: number }>>>();

function queryValues(accountId: string, query: { filters: ImportFilters; after?: PageQuery['after'] }, named: string[] | undefined): QueryValues {
  const values: QueryValues = { accountId, afterValue: query.after?.value, afterId: query.after?.id, environmentId: named?.length === 1 ? named[0] : undefined };
  for (const key of FILTER_KEYS) if (query.filters[key]) values[key] = query.filters[key];
  return values;
}

/** One keyset page of the account's complete imports matching the filters (never OFFSET). */
export async function listImportPage(db: PgExecutor, accountId: string, query: PageQuery & { filters: ImportFilters }): Promise<ImportListRow[]> {
  const named = await namedEnvironments(db, accountId, query.filters);
  if (named?.length === 0) return [];
  const shape = `${query.orderBy}-${query.direction}-${query.after ? 1 : 0}-${filterShape(query.filters, named)}`;
  const statement = cachedStatement(db, pageStatements, shape, () => {
    const column = query.orderBy === 'createdAt' ? imports.createdAt : imports.updatedAt;
    const conditions = filterConditions(query.filters, named);
    if (query.after) {
      const position = sql`(${column}, ${imports.id})`;
      const cursor = sql`(${placeholder('afterValue')}, ${placeholder('afterId')})`;
      conditions.push(query.direction === 'desc' ? sql`${position} < ${cursor}` : sql`${position} > ${cursor}`);
    }
    const order = query.direction === 'desc' ? desc : asc;
    return db
      .select(listColumns)
      .from(imports)
      .where(and(...conditions))
      .orderBy(order(column), order(imports.id))
      .limit(placeholder('limit'))
      .prepare(statementName('import-page', shape));
  });
  return await statement.execute({ ...queryValues(accountId, query, named), limit: query.limit });
}

/** The bytes of the account's complete imports: the counter kept by triggers beside the count. */
export async function storedImportBytes(db: PgExecutor, accountId: string): Promise<number> {
  const rows = await db.select({ n: importCounts.bytes }).from(importCounts).where(eq(importCounts.accountId, accountId));
  return rows[0]?.n ?? 0;
}

/** How many complete imports of the account match the filters: with none, the counter instead of a COUNT. */
export async function countImports(db: PgExecutor, accountId: string, filters: ImportFilters): Promise<number> {
  if (!FILTER_KEYS.some((key) => filters[key])) {
    // The account's counter of complete imports, kept by triggers (importCounts in schema.ts).
    const total = cachedStatement(db, countStatements, 'total', () =>
      db.select({ n: importCounts.complete }).from(importCounts).where(eq(importCounts.accountId, placeholder('accountId'))).prepare('import-count-total'),
    );
    return (await total.execute({ accountId }))[0]?.n ?? 0;
  }
  // The environment stays a subquery here: a count reads every match in any order, so it needs no lookup first.
  const shape = filterShape(filters, undefined);
  const statement = cachedStatement(db, countStatements, shape, () =>
    db.select({ n: count() }).from(imports).where(and(...filterConditions(filters, undefined))).prepare(statementName('import-count', shape)),
  );
  return (await statement.execute(queryValues(accountId, { filters }, undefined)))[0]?.n ?? 0;
}

/** The newest complete imports of the account, in the overview's columns. */
export async function latestCompleteImports(db: PgExecutor, accountId: string, limit: number): Promise<ImportSummaryRow[]> {
  return await db
    .select({
      id: imports.id,
      templateId: imports.templateId,
      createdAt: imports.createdAt,
      updatedAt: imports.updatedAt,
      fileId: imports.fileId,
      meta: imports.meta,
    })
    .from(imports)
    .where(and(eq(imports.accountId, accountId), eq(imports.status, 'complete')))
    .orderBy(desc(imports.createdAt), desc(imports.id))
    .limit(limit);
}

/** Hides up to `limit` complete imports created before `cutoff`, oldest first; returns their ids. */
export async function hideExpiredImports(db: PgExecutor, cutoff: string, limit: number): Promise<string[]> {
  const ids = db
    .select({ id: imports.id })
    .from(imports)
    .where(and(eq(imports.status, 'complete'), lt(imports.createdAt, cutoff)))
    .orderBy(asc(imports.createdAt))
    .limit(limit)
    // Another node purging at the same time takes other imports instead of waiting for these.
    .for('update', { skipLocked: true });
  return await hideImports(db, inArray(imports.id, ids));
}

/**
 * The ids of the account's environments named by the filter, deleted ones included (none: no such filter).
 * Looked up first because compared with one known id PostgreSQL reads a page through the (account,
 * environment, time) index in order; as a subquery it joined and sorted all of the environment's imports on
 * every page (test/db/postgres-query-plans.test.ts). Several (a name deleted and reused) keep the subquery.
 */
async function namedEnvironments(db: PgExecutor, accountId: string, filters: ImportFilters): Promise<string[] | undefined> {
  if (!filters.environment) return undefined;
  const named = await db
    .select({ id: environments.id })
    .from(environments)
    .where(and(eq(environments.accountId, accountId), eq(environments.name, filters.environment)));
  return named.map((e) => e.id);
}

/** The conditions of a filter shape, its values as placeholders (queryValues binds them). */
function filterConditions(filters: ImportFilters, named: string[] | undefined): SQL[] {
  const conditions: SQL[] = [eq(imports.accountId, placeholder('accountId')), eq(imports.status, 'complete')];
  if (filters.templateId) conditions.push(eq(imports.templateId, placeholder('templateId')));
  if (filters.startDate) conditions.push(gte(imports.createdAt, placeholder('startDate')));
  if (filters.endDate) conditions.push(lt(imports.createdAt, placeholder('endDate')));
  // strpos() instead of LIKE: `%` and `_` in the filter are plain characters (SQLite's instr()).
  if (filters.userEmail) conditions.push(sql`strpos(lower(${imports.endUserEmail}), lower(${placeholder('userEmail')})) > 0`);
  if (filters.environment) {
    conditions.push(
      named?.length === 1
        ? eq(imports.environmentId, placeholder('environmentId'))
        : sql`${imports.environmentId} in (select id from environments where account_id = ${placeholder('accountId')} and name = ${placeholder('environment')})`,
    );
  }
  // A pending or rejected import is read through the partial review indexes: a prepared statement's generic plan
  // can use them only when the query repeats their condition (a bound value proves nothing).
  if (filters.status) {
    conditions.push(eq(imports.reviewStatus, placeholder('status')));
    if (filters.status !== 'completed') conditions.push(sql`${imports.reviewStatus} <> 'completed'`);
  }
  return conditions;
}
