import { WRITE_TRANSACTION } from '../../db/sqlite/open-database';
import { deleteImport as deleteImportRow } from '../../db/sqlite/queries/imports';
import { countRowsOfImport, findCompleteImport } from '../../db/sqlite/queries/compliance';
import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import type { DeletedImport } from './schemas';

/**
 * Deletes one import of the account and all its rows, in one transaction. An import of another account,
 * or one still being written, is not_found (never reveal that it exists). Throws not_found.
 */
export function deleteImport(ctx: ServiceContext, accountId: string, importId: string): DeletedImport {
  return ctx.db.transaction(() => {
    const found = findCompleteImport(ctx.db, accountId, importId);
    if (!found) throw notFound('import');
    const rows = countRowsOfImport(ctx.db, found.id);
    deleteImportRow(ctx.db, found.id);
    return { id: found.id, deleted: true as const, rows };
  }, WRITE_TRANSACTION);
}
