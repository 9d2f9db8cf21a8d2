import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import { findAccountByName, insertAccount, insertAccountIfMissing, listAccountRows } from '../../db/sqlite/queries/accounts';
import type { ServiceContext } from '../context';
import { conflict, notFound } from '../errors';
import { parseInput } from '../validate';
import { CreateAccountInput, DEFAULT_ACCOUNT, type AccountOutput } from './schemas';

/** Creates an account. Throws validation_failed, conflict (name taken). */
export function createAccount(ctx: ServiceContext, input: CreateAccountInput): AccountOutput {
  const { name } = parseInput(CreateAccountInput, input);
  if (findAccountByName(ctx.db, name)) throw conflict(`account ${name} already exists`);
  const row = { id: newId(), name, createdAt: isoTime(ctx.clock) };
  insertAccount(ctx.db, row);
  return row;
}

/** Every account of the server, oldest first. */
export function listAccounts(ctx: ServiceContext): AccountOutput[] {
  return listAccountRows(ctx.db);
}

/** Finds an account by name (the default account when none is named). Throws not_found. */
export function resolveAccount(ctx: ServiceContext, name: string = DEFAULT_ACCOUNT): AccountOutput {
  const row = findAccountByName(ctx.db, name);
  if (!row) throw notFound(`account ${name}`);
  return row;
}

/** A fresh database has the `default` account. */
export function ensureDefaultAccount(ctx: ServiceContext): void {
  insertAccountIfMissing(ctx.db, { id: newId(), name: DEFAULT_ACCOUNT, createdAt: isoTime(ctx.clock) });
}
