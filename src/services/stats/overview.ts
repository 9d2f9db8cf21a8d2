import { countImports } from '../../db/queries/imports';
import { latestCompleteImports } from '../../db/queries/stats';
import { countTemplates } from '../../db/queries/templates';
import type { ServiceContext } from '../context';
import { LIST_PAGE_BYTES } from '../imports/list-imports';
import { rowsWithinBytes } from '../pagination';
import { parseJsonObject } from '../json';
import type { StatsOverview } from './schemas';

export const LATEST_IMPORTS = 5;

/** The newest imports, fewer when their meta pass the list's byte budget (imports stored before the meta cap). */
function withinBytes<R extends { meta: string }>(rows: R[]): R[] {
  return rows.slice(0, rowsWithinBytes(rows, rows.length, LIST_PAGE_BYTES, (row) => row.meta.length));
}

/** The account's totals (templates; imports that finished writing) and its 5 newest imports. */
export function statsOverview(ctx: ServiceContext, accountId: string): StatsOverview {
  // One read transaction: the counts and the list describe the same moment.
  return ctx.db.transaction(() => ({
    counts: { templates: countTemplates(ctx.db, accountId), imports: countImports(ctx.db, accountId, {}) },
    latestImports: withinBytes(latestCompleteImports(ctx.db, accountId, LATEST_IMPORTS)).map((row) => ({
      id: row.id,
      templateId: row.templateId,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      fileId: row.fileId,
      meta: parseJsonObject(row.meta),
    })),
  }), { behavior: 'deferred' });
}
