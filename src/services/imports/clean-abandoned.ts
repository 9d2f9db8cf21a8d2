import { isoTime } from '../../core/clock';
import type { ServiceContext } from '../context';
import { leaseEnd } from '../leases';
import { removeHiddenImport, removerOf } from './remove-import';

/**
 * Removes unfinished imports nobody holds any more, with their rows: those whose writer's lease ran out (a
 * node killed or cut off mid-write: never by process id, every container's process is pid 1) and those hidden
 * for deletion whose removal stopped midway. An import another live node is writing is never touched: its
 * lease is renewed while it writes. Each import is first taken over in one statement (its writer can no
 * longer complete it, no other node's clean-up takes it), then emptied in small transactions under this
 * node's lease (removeHiddenImport). Run at server start and then every IMPORTD_LEASE_SECONDS; `signal` stops it between two
 * transactions. Returns how many were removed.
 */
export async function cleanAbandonedImports(ctx: ServiceContext, signal?: AbortSignal): Promise<number> {
  const node = removerOf(ctx);
  let removed = 0;
  while (!signal?.aborted) {
    // One at a time: a claimed import's lease is renewed only while it is being removed.
    const [id] = await ctx.store.imports.claimAbandoned(node, isoTime(ctx.clock), leaseEnd(ctx), 1);
    if (id === undefined) break;
    await removeHiddenImport(ctx, id, signal);
    if (!signal?.aborted) removed++;
  }
  return removed;
}
