import { and, asc, count, desc, eq, getTableColumns, gt, lt, or } from 'drizzle-orm';
import type { Db } from '../open-database';
import { templates } from '../schema';

export type TemplateRow = typeof templates.$inferSelect;

export function findTemplate(db: Db, accountId: string, id: string): TemplateRow | undefined {
  return db.select().from(templates).where(and(eq(templates.accountId, accountId), eq(templates.id, id))).get();
}

export function findTemplateByKey(db: Db, accountId: string, key: string): TemplateRow | undefined {
  return db.select().from(templates).where(and(eq(templates.accountId, accountId), eq(templates.key, key))).get();
}

export function insertTemplate(db: Db, row: typeof templates.$inferInsert): void {
  db.insert(templates).values(row).run();
}

export function updateTemplateRow(
  db: Db,
  accountId: string,
  id: string,
  changes: Partial<Pick<TemplateRow, 'key' | 'schema' | 'source' | 'metadata' | 'updatedAt'>>,
): void {
  db.update(templates).set(changes).where(and(eq(templates.accountId, accountId), eq(templates.id, id))).run();
}

export function countTemplates(db: Db, accountId: string): number {
  return db.select({ n: count() }).from(templates).where(eq(templates.accountId, accountId)).get()?.n ?? 0;
}

export type TemplateSummaryRow = Omit<TemplateRow, 'schema'>;

/** One keyset page of the account's templates, without schemas: rows strictly after `after` in the given order. */
export function listTemplateRows(
  db: Db,
  accountId: string,
  page: { orderBy: 'createdAt' | 'updatedAt'; direction: 'asc' | 'desc'; after?: { value: string; id: string }; limit: number },
): TemplateSummaryRow[] {
  const column = page.orderBy === 'createdAt' ? templates.createdAt : templates.updatedAt;
  const beyond = page.direction === 'desc' ? lt : gt;
  const order = page.direction === 'desc' ? desc : asc;
  const after = page.after;
  const { schema: _schema, ...columns } = getTableColumns(templates);
  return db
    .select(columns)
    .from(templates)
    .where(
      and(
        eq(templates.accountId, accountId),
        after && or(beyond(column, after.value), and(eq(column, after.value), beyond(templates.id, after.id))),
      ),
    )
    .orderBy(order(column), order(templates.id))
    .limit(page.limit)
    .all();
}

/** Inserts unless the account already has a template with that key (two imports may race to auto-create it). */
export function insertTemplateIfKeyFree(db: Db, row: TemplateRow): void {
  db.insert(templates).values(row).onConflictDoNothing({ target: [templates.accountId, templates.key] }).run();
}
