import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import type { KeyKind } from '../../core/keys';
import {
  activeKeysOf,
  findEnvironmentByName,
  insertEnvironment,
  listEnvironmentRows,
  setAllowedOrigins,
  type ApiKeyRow,
  type EnvironmentRow,
} from '../../db/sqlite/queries/environments';
import { WRITE_TRANSACTION } from '../../db/sqlite/open-database';
import type { ServiceContext } from '../context';
import { conflict, notFound } from '../errors';
import { parseInput } from '../validate';
import { issueKey } from './issue-key';
import { findManagedEnvironment, type EnvironmentScope } from './scope';
import {
  CreateEnvironmentInput,
  UpdateOriginsInput,
  type CreatedEnvironment,
  type EnvironmentView,
} from './schemas';

/**
 * Creates an environment with a fresh Secret Key and Public Key. The key values appear in this result only;
 * just their SHA-256 hashes are stored. Throws validation_failed, conflict (name taken in the account).
 */
export function createEnvironment(ctx: ServiceContext, accountId: string, input: CreateEnvironmentInput): CreatedEnvironment {
  const { name, allowedOrigins } = parseInput(CreateEnvironmentInput, input);
  const createdAt = isoTime(ctx.clock);
  const environment: EnvironmentRow = { id: newId(), accountId, name, createdAt, lastUsedAt: null, deletedAt: null };
  return ctx.db.transaction(() => {
    if (findEnvironmentByName(ctx.db, accountId, name)) throw conflict(`environment ${name} already exists`);
    insertEnvironment(ctx.db, environment);
    return {
      name,
      secretKey: issueKey(ctx, environment, 'secret', [], createdAt),
      publicKey: { ...issueKey(ctx, environment, 'public', allowedOrigins, createdAt), allowedOrigins },
    };
  }, WRITE_TRANSACTION);
}

/**
 * Replaces the allowed origins of the environment's Public Key (and of a rolled one still in its grace
 * period). Throws validation_failed, not_found (also for another environment than a Secret Key's own).
 */
export function updateEnvironmentOrigins(
  ctx: ServiceContext,
  scope: EnvironmentScope,
  name: string,
  input: UpdateOriginsInput,
): EnvironmentView {
  const { allowedOrigins } = parseInput(UpdateOriginsInput, input);
  return ctx.db.transaction(() => {
    const environment = findManagedEnvironment(ctx, scope, name);
    const keys = activeKeysOf(ctx.db, [environment.id]).map((key) => {
      if (key.kind !== 'public') return key;
      setAllowedOrigins(ctx.db, key.id, allowedOrigins);
      return { ...key, allowedOrigins };
    });
    return toView(environment, keys);
  }, WRITE_TRANSACTION);
}

/** Lists the account's environments with their active keys (prefixes only). */
export function listEnvironments(ctx: ServiceContext, accountId: string): EnvironmentView[] {
  const rows = listEnvironmentRows(ctx.db, accountId);
  const keys = activeKeysOf(ctx.db, rows.map((row) => row.id));
  return rows.map((row) => toView(row, keys.filter((key) => key.environmentId === row.id)));
}

/** Finds an environment of the account by name. Throws not_found. */
export function resolveEnvironment(ctx: ServiceContext, accountId: string, name: string): EnvironmentRow {
  const environment = findEnvironmentByName(ctx.db, accountId, name);
  if (!environment) throw notFound(`environment ${name}`);
  return environment;
}

/** The environment with its current keys (a rolled key in its grace period is not shown). */
function toView(environment: EnvironmentRow, keys: ApiKeyRow[]): EnvironmentView {
  const current = keys.filter((k) => k.expiresAt === null);
  const view = (kind: KeyKind) => {
    const key = current.find((k) => k.kind === kind);
    if (!key) throw new Error(`environment ${environment.id} has no active ${kind} key`);
    return { id: key.id, prefix: key.prefix, active: key.active, lastUsedAt: key.lastUsedAt, createdAt: key.createdAt };
  };
  const publicKey = current.find((k) => k.kind === 'public');
  return {
    name: environment.name,
    secretKey: view('secret'),
    publicKey: { ...view('public'), allowedOrigins: publicKey?.allowedOrigins ?? [] },
    createdAt: environment.createdAt,
    lastUsedAt: environment.lastUsedAt,
  };
}
