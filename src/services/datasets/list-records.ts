import type { ServiceContext } from '../context';
import { buildPage, decodeCursor, type PageRequest, type Pagination } from '../pagination';
import { parseInput } from '../validate';
import { keyOfFilter, resolveDataset } from './resolve-dataset';
import { ListRecordsQuery, type DatasetRecord } from './schemas';

type RecordFilters = { environment: string | null; key?: string };

/**
 * One keyset page of a keyed template's dataset in an environment (the caller's own by default), by key, or
 * the one record of `key`; each record with the import, time and end-user of its last write. `total` counts
 * the dataset's records (the page's cost does not grow with its depth; the count does with the dataset).
 * Throws validation_failed, not_found.
 */
export async function listRecords(
  ctx: ServiceContext,
  accountId: string,
  templateId: string,
  input: ListRecordsQuery,
  ownEnvironmentId: string | null = null,
): Promise<{ data: DatasetRecord[]; pagination: Pagination<RecordFilters> }> {
  const { environment, key, limit, cursor } = parseInput(ListRecordsQuery, input);
  const dataset = await resolveDataset(ctx, accountId, templateId, environment, ownEnvironmentId);
  const filters: RecordFilters = key === undefined ? { environment: dataset.environment } : { environment: dataset.environment, key };
  const request: PageRequest<RecordFilters, 'string'> = { scope: ['records', accountId, templateId], keyset: 'string', limit, cursor, orderBy: 'key', direction: 'asc', filters };
  const after = decodeCursor(ctx, request)?.value;
  const keyText = key === undefined ? undefined : keyOfFilter(dataset.rules, key);
  if (key !== undefined && keyText === undefined) return { data: [], pagination: buildPage(ctx, request, [], 0, () => ({ value: '', id: '' })).pagination };
  const rows = limit === 0 ? [] : await ctx.store.datasets.page(dataset.ref, { after, key: keyText, limit: limit + 1 });
  const total = keyText !== undefined ? rows.length : await ctx.store.datasets.count(dataset.ref);
  const page = buildPage(ctx, request, rows, total, (row) => ({ value: row.key, id: '' }));
  return {
    data: page.rows.map((row) => ({ key: JSON.parse(row.key) as DatasetRecord['key'], record: JSON.parse(row.record) as DatasetRecord['record'], importId: row.importId, endUserId: row.endUserId, updatedAt: row.updatedAt })),
    pagination: page.pagination,
  };
}
