import { countImports } from '../../db/sqlite/queries/imports';
import { latestCompleteImports } from '../../db/sqlite/queries/stats';
import { countTemplates } from '../../db/sqlite/queries/templates';
import type { ServiceContext } from '../context';
import { parseJsonObject } from '../json';
import type { StatsOverview } from './schemas';

export const LATEST_IMPORTS = 5;

/** The account's totals (templates; imports that finished writing) and its 5 newest imports. */
export function statsOverview(ctx: ServiceContext, accountId: string): StatsOverview {
  // One read transaction: the counts and the list describe the same moment.
  return ctx.db.transaction(() => ({
    counts: { templates: countTemplates(ctx.db, accountId), imports: countImports(ctx.db, accountId, {}) },
    latestImports: latestCompleteImports(ctx.db, accountId, LATEST_IMPORTS).map((row) => ({
      id: row.id,
      templateId: row.templateId,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      fileId: row.fileId,
      meta: parseJsonObject(row.meta),
    })),
  }), { behavior: 'deferred' });
}
