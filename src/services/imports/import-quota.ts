import { QuotaExceededError, type AccountQuota } from '../../db/store';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import type { CheckedRows } from './check-rows';

// IMPORTD_ACCOUNT_QUOTA_BYTES bounds the bytes of an account's stored imports together, each import counting
// its body's bytes (a JSON body, an NDJSON stream, an `importd import` file). The usage is the account's
// counter in import_counts, kept by triggers in the transaction of every completion, hiding and deletion: one
// primary-key read, exact for every node and every way an import goes (DELETE, erasure, retention, cascade).
// The reads below refuse early what cannot fit; the charge itself is checked in the completion's transaction
// (accountQuota), so imports completing at once, on one node or several, never take the account past it.

/** An import body's size: `declared` when known before it is read (0 for a stream), `read` as it arrives. */
export interface ImportBytes {
  declared: number;
  read(): number;
}

export const quotaExceeded = (quota: number) =>
  new ServiceError('quota_exceeded', `the account's stored imports would exceed ${quota} bytes (IMPORTD_ACCOUNT_QUOTA_BYTES); delete imports or raise the setting`);

/**
 * The bytes the account may still store (Infinity with no quota), read from the database. Throws
 * quota_exceeded, before any row is written, when the account is at its quota or `declared` bytes would pass it.
 */
export async function quotaRoom(ctx: ServiceContext, accountId: string, declared: number): Promise<number> {
  const quota = ctx.config.limits.accountQuotaBytes;
  if (quota === 0) return Infinity;
  const room = quota - (await ctx.store.imports.storedBytes(accountId));
  if (room <= 0 || declared > room) throw quotaExceeded(quota);
  return room;
}

/**
 * The rows, failing with quota_exceeded as soon as the body's bytes read so far pass `room`: before the slice
 * read meanwhile is stored, and once more after the last one. The writer then aborts the import: nothing of it stays.
 */
export function withinQuota(ctx: ServiceContext, rows: CheckedRows, room: number, bytes: ImportBytes): CheckedRows {
  if (room === Infinity) return rows;
  const check = () => {
    if (bytes.read() > room) throw quotaExceeded(ctx.config.limits.accountQuotaBytes);
  };
  async function* slices() {
    for await (const slice of rows.slices) {
      check();
      yield slice;
    }
    check();
  }
  return { slices: slices(), stats: () => rows.stats(), discard: rows.discard && (() => rows.discard!()) };
}

/** The quota an import's completion is held to, atomically with it (undefined with none). */
export function accountQuota(ctx: ServiceContext, accountId: string): AccountQuota | undefined {
  const maxBytes = ctx.config.limits.accountQuotaBytes;
  return maxBytes === 0 ? undefined : { accountId, maxBytes };
}

/** A completion's answer, quota_exceeded when it would have taken the account past its quota (nothing then stays). */
export async function chargedToQuota<T>(ctx: ServiceContext, completion: Promise<T>): Promise<T> {
  try {
    return await completion;
  } catch (error) {
    if (error instanceof QuotaExceededError) throw quotaExceeded(ctx.config.limits.accountQuotaBytes);
    throw error;
  }
}
