import { desc } from 'drizzle-orm';
import type { Db } from '../open-database';
import { imports } from '../schema';
import { completeImportsOf } from './imports';

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
    .where(completeImportsOf(accountId))
    .orderBy(desc(imports.createdAt), desc(imports.id))
    .limit(limit)
    .all();
}
