import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import type { ImportErrors } from './schemas';

const NO_ERRORS = '{"invalidRows":0,"errorCount":0,"omittedGroups":0,"errors":[]}';

/**
 * An import's invalid cells by field and code, with counts and the first 3 (rowIndex, value) of each, as JSON
 * text (ImportErrors). Bounded cost whatever the import's size: the summary is computed while the rows are
 * validated and stored with the import when it completes (error-summary.ts); this reads that one value. A
 * free-form import, or one without an invalid row, has an empty summary. Throws not_found.
 */
export async function getImportErrors(ctx: ServiceContext, accountId: string, importId: string): Promise<string> {
  const summary = await ctx.store.imports.errorSummary(accountId, importId);
  if (summary === undefined) throw notFound('import');
  return summary ?? NO_ERRORS;
}

/** The summary as a value (the CLI renders it). */
export async function readImportErrors(ctx: ServiceContext, accountId: string, importId: string): Promise<ImportErrors> {
  return JSON.parse(await getImportErrors(ctx, accountId, importId)) as ImportErrors;
}
