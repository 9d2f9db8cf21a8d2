import { and, eq } from 'drizzle-orm';
import type { Db } from '../open-database';
import { templates } from '../schema';

export type TemplateRow = typeof templates.$inferSelect;

export function findTemplate(db: Db, accountId: string, id: string): TemplateRow | undefined {
  return db.select().from(templates).where(and(eq(templates.accountId, accountId), eq(templates.id, id))).get();
}
