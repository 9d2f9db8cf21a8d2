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
export async function statsOverview(ctx: ServiceContext, accountId: string): Promise<StatsOverview> {
  // Read at one point in time: the counts and the list describe the same moment.
  const overview = await ctx.store.imports.overview(accountId, LATEST_IMPORTS);
  return {
    counts: { templates: overview.templates, imports: overview.imports },
    latestImports: withinBytes(overview.latest).map((row) => ({
      id: row.id,
      templateId: row.templateId,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      fileId: row.fileId,
      meta: parseJsonObject(row.meta),
    })),
  };
}
