import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import type { ServiceContext } from '../context';
import { conflictOnUnique, notFound } from '../errors';
import { parseInput } from '../validate';
import { CreateAccountInput, DEFAULT_ACCOUNT, type AccountOutput, type AccountUsageOutput } from './schemas';

/** Creates an account. Throws validation_failed, conflict (name taken). */
export async function createAccount(ctx: ServiceContext, input: CreateAccountInput): Promise<AccountOutput> {
  const { name } = parseInput(CreateAccountInput, input);
  const row = { id: newId(), name, createdAt: isoTime(ctx.clock) };
  await conflictOnUnique(ctx.store.accounts.insert(row), `account ${name} already exists`);
  return row;
}

/**
 * Every account of the server, oldest first, with the bytes of its stored imports (a counter read per account)
 * and the storage quota (IMPORTD_ACCOUNT_QUOTA_BYTES; null when off).
 */
export async function listAccounts(ctx: ServiceContext): Promise<AccountUsageOutput[]> {
  const quota = ctx.config.limits.accountQuotaBytes;
  const accounts = await ctx.store.accounts.list();
  const used = await Promise.all(accounts.map(async (account) => await ctx.store.imports.storedBytes(account.id)));
  return accounts.map((account, i) => ({ ...account, usedBytes: used[i]!, quotaBytes: quota === 0 ? null : quota }));
}

/** Finds an account by name (the default account when none is named). Throws not_found. */
export async function resolveAccount(ctx: ServiceContext, name: string = DEFAULT_ACCOUNT): Promise<AccountOutput> {
  const row = await ctx.store.accounts.findByName(name);
  if (!row) throw notFound(`account ${name}`);
  return row;
}

/** A fresh database has the `default` account. */
export async function ensureDefaultAccount(ctx: ServiceContext): Promise<void> {
  await ctx.store.accounts.insertIfMissing({ id: newId(), name: DEFAULT_ACCOUNT, createdAt: isoTime(ctx.clock) });
}
