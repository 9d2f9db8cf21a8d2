import { and, asc, count, desc, eq, fillPlaceholders, getTableColumns, gte, inArray, isNull, lt, lte, or, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../open-database';
import { preparedQuery, rawQuery } from '../prepared';
import { IMPORT_LIST_COLUMNS, importListRowOf, type CompletedValues, type ImportFilters, type ImportListColumns, type ImportListRow, type ImportRow, type NewImportRow, type ImportViewRow, type PageQuery, type ReviewDecision } from '../../store';
import { columnsOf } from '../../columns';
import { imports, importSchemas } from '../schema';
import { cachedStatement } from '../../statement-cache';

export type ImportPageQuery = PageQuery & { filters: ImportFilters };

/** An import and its original schema (a table of its own: schema.ts); the caller's transaction makes it one write. */
export function insertImport(db: Db, { originalSchema, ...row }: NewImportRow): void {
  db.insert(imports).values(row).run();
  db.insert(importSchemas).values({ importId: row.id, originalSchema }).run();
}

/** The import is still being written by `writerNode` (not hidden, not taken over by a clean-up). */
const writtenBy = (id: string, writerNode: string) => and(eq(imports.id, id), eq(imports.status, 'writing'), eq(imports.writerNode, writerNode));

/**
 * Makes a written import visible: counts, statistics and times are set in the same statement as the status.
 * False when the import is no longer its writer's (hidden or taken over meanwhile): nothing then changes.
 */
export function completeImport(
  db: Db,
  id: string,
  writerNode: string,
  values: CompletedValues,
): boolean {
  return (
    db
      .update(imports)
      .set({ ...values, status: 'complete', writerNode: null, leaseUntil: null })
      .where(writtenBy(id, writerNode))
      .run().changes === 1
  );
}

/**
 * A reviewer's decision on a pending complete import of the account, in one statement: undefined when it is not
 * pending (decided meanwhile) or not there, and nothing changes.
 */
export function reviewImport(db: Db, accountId: string, id: string, decision: ReviewDecision): ImportViewRow | undefined {
  return db
    .update(imports)
    .set({ reviewStatus: decision.status, reviewedAt: decision.at, reviewReason: decision.reason, updatedAt: decision.at })
    .where(and(eq(imports.accountId, accountId), eq(imports.id, id), eq(imports.status, 'complete'), eq(imports.reviewStatus, 'pending_review')))
    .returning(importColumns)
    .get();
}

/** A complete import's summary of invalid cells (null: none; undefined: no such import). */
export function findErrorSummary(db: Db, accountId: string, id: string): string | null | undefined {
  const row = db.select({ summary: imports.errorSummary }).from(imports).where(and(eq(imports.accountId, accountId), eq(imports.id, id), eq(imports.status, 'complete'))).get();
  return row?.summary;
}

export function renewImportLease(db: Db, id: string, writerNode: string, until: string): boolean {
  return db.update(imports).set({ leaseUntil: until }).where(writtenBy(id, writerNode)).run().changes === 1;
}

/** An unfinished import nobody holds: no writer (hidden for deletion), or a lease that ran out. */
const unheld = (now: string) => and(eq(imports.status, 'writing'), or(isNull(imports.leaseUntil), lte(imports.leaseUntil, now)));

/** Takes over unfinished imports nobody holds, in one statement. */
export function claimAbandonedImports(db: Db, node: string, now: string, until: string, limit: number): string[] {
  const ids = db.select({ id: imports.id }).from(imports).where(unheld(now)).limit(limit);
  return db
    .update(imports)
    .set({ writerNode: node, leaseUntil: until })
    .where(inArray(imports.id, ids))
    .returning({ id: imports.id })
    .all()
    .map((row) => row.id);
}

/** Takes one unfinished import for removal, unless another node holds it. */
export function claimImport(db: Db, id: string, node: string, now: string, until: string): boolean {
  const mine = and(eq(imports.status, 'writing'), eq(imports.writerNode, node));
  return (
    db
      .update(imports)
      .set({ writerNode: node, leaseUntil: until })
      .where(and(eq(imports.id, id), or(unheld(now), mine)))
      .run().changes === 1
  );
}

/**
 * Hides imports for deletion, in one statement: status 'writing' with no writer, so no read sees them from
 * now on, their writer (if any) can no longer complete them, and the start-up clean-up of left-over writes
 * removes whatever a stopped process had not deleted yet.
 */
export function hideImports(db: Db, where: SQL): string[] {
  return db
    .update(imports)
    .set({ status: 'writing', writerNode: null, leaseUntil: null })
    .where(where)
    .returning({ id: imports.id })
    .all()
    .map((row) => row.id);
}

export function deleteImport(db: Db, id: string): void {
  db.delete(imports).where(eq(imports.id, id)).run();
}

// An ImportRow's columns: not `bytes`, which only the account's counter reads (import-quota.ts), nor the error
// summary, which only GET /imports/{id}/errors reads (findErrorSummary).
const { bytes: _bytes, errorSummary: _summary, ...importColumns } = getTableColumns(imports);

const completeImportById = preparedQuery((db) =>
  db
    .select({ ...importColumns, originalSchema: importSchemas.originalSchema })
    .from(imports)
    .innerJoin(importSchemas, eq(importSchemas.importId, imports.id))
    .where(and(eq(imports.accountId, sql.placeholder('accountId')), eq(imports.id, sql.placeholder('id')), eq(imports.status, 'complete')))
    .prepare(),
);

/** A complete import of the account (every detail, rows and export request reads it: prepared once). */
export function findImport(db: Db, accountId: string, id: string): ImportRow | undefined {
  return completeImportById(db).get({ accountId, id });
}

// Every detail and rows read: a raw statement of the columns they need (drizzle maps each of the twenty
// columns per row; the originalSchema, up to 1 MiB, is left in the database), its row an array mapped here
// (better-sqlite3 builds an object row by naming each column, about half of the read's cost).
const importViewById = rawQuery((sqlite) =>
  sqlite
    .prepare<[string, string], ImportViewColumns>(
      `SELECT id, account_id, environment_id, template_id, status, writer_node, lease_until, meta, file, file_id, end_user_id, end_user_email,
         end_user_ip, imported_from, session_jti, row_count, cell_stats, created_at, updated_at, review_status, reviewed_at, review_reason, mode, changes
       FROM imports WHERE account_id = ? AND id = ? AND status = 'complete'`,
    )
    .raw(),
);

type Text = string | null;
export type ImportViewColumns = [string, string, Text, string, ImportViewRow['status'], Text, Text, string, Text, Text, Text, Text, Text, Text, Text, number, string, string, string, ImportViewRow['reviewStatus'], Text, Text, ImportViewRow['mode'], Text];

/** A complete import of the account, all but its originalSchema. */
export function findImportView(db: Db, accountId: string, id: string): ImportViewRow | undefined {
  const row = importViewById(db).get(accountId, id);
  return row && importViewOf(row);
}

/** An import from its columns as importViewById reads them, in that order. */
export function importViewOf(row: ImportViewColumns): ImportViewRow {
  const [id, accountId, environmentId, templateId, status, writerNode, leaseUntil, meta, file, fileId, endUserId, endUserEmail, endUserIp, importedFrom, sessionJti, rowCount, cellStats, createdAt, updatedAt, reviewStatus, reviewedAt, reviewReason, mode, changes] = row;
  return { id, accountId, environmentId, templateId, status, writerNode, leaseUntil, meta, file, fileId, endUserId, endUserEmail, endUserIp, importedFrom, sessionJti, rowCount, cellStats, createdAt, updatedAt, reviewStatus, reviewedAt, reviewReason, mode, changes };
}

// A list item's columns, in the order a page's raw rows hold them (importListRowOf).
const listColumns = columnsOf(imports, IMPORT_LIST_COLUMNS);

/** One keyset page (limit + 1 rows are asked for by the caller to learn whether a next page exists). */
export function listImportPage(db: Db, accountId: string, query: ImportPageQuery): ImportListRow[] {
  const shape = `${query.orderBy} ${query.direction} ${Boolean(query.after)} ${filterShape(query.filters)}`;
  const statement = cachedStatement(db, pageStatements, shape, () => rawStatement<ImportListColumns>(db, buildPageQuery(db, placeholders, query, boundLimit)));
  return statement.all({ ...queryValues(accountId, query), limit: query.limit }).map(importListRowOf);
}

/**
 * A query drizzle built, prepared as a raw statement whose rows are arrays, its placeholders bound by name:
 * drizzle's own prepared query maps every column of every row through its column objects, which cost a list
 * page of 101 more than SQLite's reading it (about 345 against 140 µs in a loop).
 */
function rawStatement<Row>(db: Db, query: { toSQL(): { sql: string; params: unknown[] } }): { all(values: Record<string, unknown>): Row[] } {
  const { sql: text, params } = query.toSQL();
  const statement = db.$client.prepare<unknown[], Row>(text).raw();
  return { all: (values) => statement.all(...fillPlaceholders(params, values)) };
}

/** The page query itself, unexecuted (its plan is checked by a test: an index for every sort and filter). */
export function importPageQuery(db: Db, accountId: string, query: ImportPageQuery) {
  return buildPageQuery(db, valuesOf(accountId, query), query, query.limit);
}

// The account's counter of complete imports, kept by triggers (importCounts in schema.ts).
const completeCount = rawQuery((sqlite) => sqlite.prepare<[string], { n: number }>('SELECT complete AS n FROM import_counts WHERE account_id = ?'));

const storedBytesOf = rawQuery((sqlite) => sqlite.prepare<[string], { n: number }>('SELECT bytes AS n FROM import_counts WHERE account_id = ?'));

/** The bytes of the account's complete imports: the counter beside completeCount. */
export function storedImportBytes(db: Db, accountId: string): number {
  return storedBytesOf(db).get(accountId)?.n ?? 0;
}

/** How many complete imports of the account match the filters: with none, the counter instead of a COUNT. */
export function countImports(db: Db, accountId: string, filters: ImportFilters): number {
  const shape = filterShape(filters);
  if (shape === UNFILTERED) return completeCount(db).get(accountId)?.n ?? 0;
  const statement = cachedStatement(db, countStatements, shape, () => buildCountQuery(db, placeholders, filters).prepare());
  return statement.get(queryValues(accountId, { filters }))?.n ?? 0;
}

export function countImportsQuery(db: Db, accountId: string, filters: ImportFilters) {
  return buildCountQuery(db, valuesOf(accountId, { filters }), filters);
}

// Building a query with drizzle costs about 100 µs, more than running it: each query shape (sort, direction,
// cursor or not, which filters are set: at most 128 of them) is built once with placeholders, prepared and
// kept per database; a request only binds its values.
type Param = (name: keyof QueryValues) => string | SQLWrapper;
type QueryValues = { accountId: string; afterValue?: string; afterId?: string } & { [K in keyof ImportFilters]?: string };
const placeholders: Param = (name) => sql.placeholder(name);
const valuesOf = (accountId: string, query: Pick<ImportPageQuery, 'filters'> & { after?: ImportPageQuery['after'] }): Param => {
  const values = queryValues(accountId, query);
  // Only the values the query shape uses are asked for, and those are set.
  return (name) => values[name]!;
};

function queryValues(accountId: string, query: Pick<ImportPageQuery, 'filters'> & { after?: ImportPageQuery['after'] }): QueryValues {
  const values: QueryValues = { accountId, afterValue: query.after?.value, afterId: query.after?.id };
  for (const key of FILTER_KEYS) if (query.filters[key]) values[key] = query.filters[key];
  return values;
}

const FILTER_KEYS = ['templateId', 'startDate', 'endDate', 'userEmail', 'environment', 'status'] as const;
// A status filter's shape also says whether it asks for completed imports: the others are read through the
// partial review indexes (reviewCondition).
const filterShape = (filters: ImportFilters) => FILTER_KEYS.map((key) => (filters[key] ? 1 : 0)).join('') + (filters.status === 'completed' ? 'c' : '');
const UNFILTERED = filterShape({});

// `LIMIT ? + 0`: a bare placeholder would have the kept statement prepared anew on every page (import-rows.ts);
// drizzle's limit() writes any SQL object it is given as it is, though its type only names number | Placeholder.
const boundLimit = sql`${sql.placeholder('limit')} + 0` as unknown as Placeholder;

const pageStatements = new WeakMap<Db, Map<string, { all(values: QueryValues & { limit: number }): ImportListColumns[] }>>();
const countStatements = new WeakMap<Db, Map<string, { get(values: QueryValues): { n: number } | undefined }>>();


function buildPageQuery(db: Db, param: Param, query: ImportPageQuery, limit: number | Placeholder) {
  const column = query.orderBy === 'createdAt' ? imports.createdAt : imports.updatedAt;
  const conditions = filterConditions(param, query.filters);
  if (query.after) {
    const position = sql`(${column}, ${imports.id})`;
    const cursor = sql`(${param('afterValue')}, ${param('afterId')})`;
    conditions.push(query.direction === 'desc' ? sql`${position} < ${cursor}` : sql`${position} > ${cursor}`);
  }
  const order = query.direction === 'desc' ? desc : asc;
  return db
    .select(listColumns)
    .from(imports)
    .where(and(...conditions))
    .orderBy(order(column), order(imports.id))
    .limit(limit);
}

function buildCountQuery(db: Db, param: Param, filters: ImportFilters) {
  return db.select({ n: count() }).from(imports).where(and(...filterConditions(param, filters)));
}

/** The account's imports that finished writing: an import still being written is visible nowhere. */
export function completeImportsOf(accountId: string): SQL {
  return and(eq(imports.accountId, accountId), eq(imports.status, 'complete'))!;
}

function filterConditions(param: Param, filters: ImportFilters): SQL[] {
  const conditions: SQL[] = [eq(imports.accountId, param('accountId')), eq(imports.status, 'complete')];
  if (filters.templateId) conditions.push(eq(imports.templateId, param('templateId')));
  if (filters.startDate) conditions.push(gte(imports.createdAt, param('startDate')));
  if (filters.endDate) conditions.push(lt(imports.createdAt, param('endDate')));
  // instr() instead of LIKE: `%` and `_` in the filter are plain characters.
  if (filters.userEmail) conditions.push(sql`instr(lower(${imports.endUserEmail}), lower(${param('userEmail')})) > 0`);
  if (filters.environment) {
    conditions.push(
      sql`${imports.environmentId} in (select id from environments where account_id = ${param('accountId')} and name = ${param('environment')})`,
    );
  }
  if (filters.status) conditions.push(...reviewConditions(filters.status, param('status')));
  return conditions;
}

/**
 * The `status` filter: a pending or rejected import is found through the partial review indexes, which SQLite
 * uses only for a query that repeats their condition word for word (`review_status <> 'completed'`).
 */
export function reviewConditions(status: NonNullable<ImportFilters['status']>, value: string | SQLWrapper): SQL[] {
  const equal = sql`${imports.reviewStatus} = ${value}`;
  return status === 'completed' ? [equal] : [equal, sql`${imports.reviewStatus} <> 'completed'`];
}
