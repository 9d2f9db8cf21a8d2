import type { ServiceContext } from '../context';
import { validationFailed } from '../errors';
import { findAccountImportView } from '../imports/get-import';
import type { DatasetChanges } from '../imports/schemas';
import { buildPage, decodeCursor, type PageRequest, type Pagination } from '../pagination';
import { parseInput } from '../validate';
import { datasetOf } from './apply';
import { ListMissingQuery, type DatasetRecord } from './schemas';

/**
 * A keyset page of the keys an import into a keyed template did not carry: for a `replace` import the keys it
 * removed, as they were; for an `upsert` one the keys its dataset holds now that it did not carry (the
 * dataset moves on: `total` is the count when it was applied). Throws validation_failed (an unkeyed
 * template's import; path `importId`), not_found.
 */
export async function listMissing(ctx: ServiceContext, accountId: string, importId: string, input: ListMissingQuery): Promise<{ data: { key: DatasetRecord['key'] }[]; pagination: Pagination<Record<string, never>> }> {
  const { limit, cursor } = parseInput(ListMissingQuery, input);
  const imported = await findAccountImportView(ctx, accountId, importId);
  if (!imported.changes || !imported.mode) throw validationFailed([{ path: 'importId', message: 'the import was not applied to a dataset (its template has no primaryKey)' }]);
  const request: PageRequest<Record<string, never>, 'string'> = { scope: ['missing', accountId, imported.id], keyset: 'string', limit, cursor, orderBy: 'key', direction: 'asc', filters: {} };
  const after = decodeCursor(ctx, request)?.value;
  const keys = limit === 0 ? [] : await ctx.store.datasets.missing(datasetOf(imported), imported.id, imported.mode, { after, limit: limit + 1 });
  const page = buildPage(ctx, request, keys, (JSON.parse(imported.changes) as DatasetChanges).missing, (key) => ({ value: key, id: '' }));
  return { data: page.rows.map((key) => ({ key: JSON.parse(key) as DatasetRecord['key'] })), pagination: page.pagination };
}
