import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import type { ServiceContext } from '../context';
import { conflictOnUnique, notFound } from '../errors';
import { parseInput } from '../validate';
import { CreateAccountInput, DEFAULT_ACCOUNT, type AccountOutput } from './schemas';

/** Creates an account. Throws validation_failed, conflict (name taken). */
export async function createAccount(ctx: ServiceContext, input: CreateAccountInput): Promise<AccountOutput> {
  const { name } = parseInput(CreateAccountInput, input);
  const row = { id: newId(), name, createdAt: isoTime(ctx.clock) };
  await conflictOnUnique(ctx.store.accounts.insert(row), `account ${name} already exists`);
  return row;
}

/** Every account of the server, oldest first. */
export async function listAccounts(ctx: ServiceContext): Promise<AccountOutput[]> {
  return ctx.store.accounts.list();
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
