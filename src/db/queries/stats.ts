import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../open-database';
import { imports } from '../schema';

const visible = (accountId: string) => and(eq(imports.accountId, accountId), eq(imports.status, 'complete'));

/** Imports of the account that finished writing (an import still being written is not visible). */
export function countCompleteImports(db: Db, accountId: string): number {
  return db.select({ n: count() }).from(imports).where(visible(accountId)).get()?.n ?? 0;
}

/** The newest complete imports of the account, in the overview's columns. */
export function latestCompleteImports(db: Db, accountId: string, limit: number) {
  return db
    .select({
      id: imports.id,
      templateId: imports.templateId,
      createdAt: imports.createdAt,
      updatedAt: imports.updatedAt,
      fileId: imports.fileId,
      meta: imports.meta,
    })
    .from(imports)
    .where(visible(accountId))
    .orderBy(desc(imports.createdAt), desc(imports.id))
    .limit(limit)
    .all();
}
