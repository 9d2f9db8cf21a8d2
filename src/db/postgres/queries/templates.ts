import { and, asc, count, desc, eq, getTableColumns, gt, lt, or } from 'drizzle-orm';
import type { PageQuery, TemplateRow, TemplateSummaryRow } from '../../store';
import type { PgExecutor } from '../open-database';
import { templates } from '../schema';

export async function findTemplate(db: PgExecutor, accountId: string, id: string): Promise<TemplateRow | undefined> {
  return (await db.select().from(templates).where(and(eq(templates.accountId, accountId), eq(templates.id, id))).limit(1))[0];
}

export async function findTemplateByKey(db: PgExecutor, accountId: string, key: string): Promise<TemplateRow | undefined> {
  return (await db.select().from(templates).where(and(eq(templates.accountId, accountId), eq(templates.key, key))).limit(1))[0];
}

export async function insertTemplate(db: PgExecutor, row: TemplateRow): Promise<void> {
  await db.insert(templates).values(row);
}

/** Inserts unless the account already has a template with that key (two imports may race to auto-create it). */
export async function insertTemplateIfKeyFree(db: PgExecutor, row: TemplateRow): Promise<void> {
  await db.insert(templates).values(row).onConflictDoNothing({ target: [templates.accountId, templates.key] });
}

/** Returns the updated row, or undefined when there is none. */
export async function updateTemplateRow(
  db: PgExecutor,
  accountId: string,
  id: string,
  changes: Partial<Pick<TemplateRow, 'key' | 'schema' | 'source' | 'metadata' | 'updatedAt'>>,
): Promise<TemplateRow | undefined> {
  const where = and(eq(templates.accountId, accountId), eq(templates.id, id));
  // drizzle refuses an UPDATE with nothing to set; the row as it is answers then.
  if (Object.values(changes).every((value) => value === undefined)) return await findTemplate(db, accountId, id);
  return (await db.update(templates).set(changes).where(where).returning())[0];
}

export async function countTemplates(db: PgExecutor, accountId: string): Promise<number> {
  return (await db.select({ n: count() }).from(templates).where(eq(templates.accountId, accountId)))[0]?.n ?? 0;
}

const { schema: _schema, ...summaryColumns } = getTableColumns(templates);

/** One keyset page of the account's templates, without schemas: rows strictly after `after` in the given order. */
export async function listTemplateRows(db: PgExecutor, accountId: string, page: PageQuery): Promise<TemplateSummaryRow[]> {
  const column = page.orderBy === 'createdAt' ? templates.createdAt : templates.updatedAt;
  const beyond = page.direction === 'desc' ? lt : gt;
  const order = page.direction === 'desc' ? desc : asc;
  const after = page.after;
  return await db
    .select(summaryColumns)
    .from(templates)
    .where(
      and(
        eq(templates.accountId, accountId),
        after && or(beyond(column, after.value), and(eq(column, after.value), beyond(templates.id, after.id))),
      ),
    )
    .orderBy(order(column), order(templates.id))
    .limit(page.limit);
}
