import type { ImportRow, ImportViewRow } from '../../db/store';
import type { ServiceContext } from '../context';
import { notFound } from '../errors';

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

/**
 * One import as stored, its JSON members as the text the service wrote (the CLI renders it with toDetail, the
 * HTTP route splices the text in). Throws not_found.
 */
export async function getImport(ctx: ServiceContext, accountId: string, importId: string): Promise<ImportViewRow> {
  return findAccountImportView(ctx, accountId, importId);
}
