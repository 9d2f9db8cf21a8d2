import type { ServiceContext } from '../context';

/**
 * Rows deleted per transaction: a few milliseconds of work, so an import of any size is removed without
 * holding the server (freeing a row costs about what storing it did; rows are at most IMPORTD_MAX_ROW_BYTES).
 */
export const ROWS_PER_DELETE = 1_000;

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Removes an import that is already hidden (hideImports, or still 'writing'): its rows in transactions of
 * ROWS_PER_DELETE, yielding to the event loop before each, then the import itself. Returns how many rows
 * went. `signal` stops it between two transactions; what is left stays hidden and the next start removes it.
 */
export async function removeHiddenImport(ctx: ServiceContext, importId: string, signal?: AbortSignal): Promise<number> {
  let rows = 0;
  for (;;) {
    await yieldToRequests();
    if (signal?.aborted) return rows;
    const deleted = await ctx.store.compliance.deleteRows(importId, ROWS_PER_DELETE);
    rows += deleted;
    if (deleted < ROWS_PER_DELETE) break;
  }
  await ctx.store.imports.delete(importId);
  return rows;
}
