import { findImport, type ImportRow } from '../../db/queries/imports';
import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import type { ImportDetail } from './schemas';
import { detailJson, toDetail } from './views';

/** A complete import of the account; other accounts' imports and unfinished ones do not exist. Throws not_found. */
export function findAccountImport(ctx: ServiceContext, accountId: string, importId: string): ImportRow {
  const row = findImport(ctx.db, accountId, importId);
  if (!row) throw notFound('import');
  return row;
}

/** One import in the detail shape. Throws not_found. */
export function getImport(ctx: ServiceContext, accountId: string, importId: string): ImportDetail {
  return toDetail(findAccountImport(ctx, accountId, importId));
}

/** getImport's answer as JSON text (stored JSON spliced in, nothing parsed): the HTTP read path. Throws not_found. */
export function getImportJson(ctx: ServiceContext, accountId: string, importId: string): string {
  return detailJson(findAccountImport(ctx, accountId, importId));
}
