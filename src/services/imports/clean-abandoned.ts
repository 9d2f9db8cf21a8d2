import type { ServiceContext } from '../context';

/**
 * Deletes imports left 'writing' by a process that is gone (killed mid-write), with their rows. Run at
 * server start: then an import carrying this process's own pid is also a leftover (an earlier process
 * that had the same pid). Imports being written by a live process (a concurrent CLI load) are kept.
 * Returns how many were removed.
 */
export async function cleanAbandonedImports(ctx: ServiceContext): Promise<number> {
  let removed = 0;
  for (const entry of await ctx.store.imports.writing()) {
    if (entry.writerPid === null || entry.writerPid === process.pid || !processAlive(entry.writerPid)) {
      await ctx.store.imports.delete(entry.id);
      removed++;
    }
  }
  return removed;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
