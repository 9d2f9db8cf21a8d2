import type { ImportRow, ImportViewRow } from '../../db/store';
import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import type { ImportDetail } from './schemas';
import { detailJson, toDetail } from './views';

/** A complete import of the account; other accounts' imports and unfinished ones do not exist. Throws not_found. */
export async function findAccountImport(ctx: ServiceContext, accountId: string, importId: string): Promise<ImportRow> {
  const row = await ctx.store.imports.find(accountId, importId);
  if (!row) throw notFound('import');
  return row;
}

/** findAccountImport without the import's originalSchema (up to 1 MiB): what the detail and rows reads need. Throws not_found. */
export async function findAccountImportView(ctx: ServiceContext, accountId: string, importId: string): Promise<ImportViewRow> {
  const row = await ctx.store.imports.findView(accountId, importId);
  if (!row) throw notFound('import');
  return row;
}

/** One import in the detail shape. Throws not_found. */
export async function getImport(ctx: ServiceContext, accountId: string, importId: string): Promise<ImportDetail> {
  return toDetail(await findAccountImportView(ctx, accountId, importId));
}

/** getImport's answer as JSON text (stored JSON spliced in, nothing parsed): the HTTP read path. Throws not_found. */
export async function getImportJson(ctx: ServiceContext, accountId: string, importId: string): Promise<string> {
  return detailJson(await findAccountImportView(ctx, accountId, importId));
}
