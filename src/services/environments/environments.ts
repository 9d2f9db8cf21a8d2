import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import { generateKey, type KeyKind } from '../../core/keys';
import {
  activeKeysOf,
  findEnvironmentByName,
  insertApiKey,
  insertEnvironment,
  listEnvironmentRows,
  setAllowedOrigins,
  type ApiKeyRow,
  type EnvironmentRow,
} from '../../db/queries/environments';
import { WRITE_TRANSACTION } from '../../db/open-database';
import type { ServiceContext } from '../context';
import { conflict, notFound } from '../errors';
import { parseInput } from '../validate';
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
  const environment: EnvironmentRow = { id: newId(), accountId, name, createdAt, lastUsedAt: null };
  const issue = (kind: KeyKind, origins: string[]) => {
    const key = generateKey(kind);
    const row: ApiKeyRow = {
      id: newId(),
      accountId,
      environmentId: environment.id,
      kind,
      hash: key.hash,
      prefix: key.prefix,
      active: true,
      allowedOrigins: origins,
      createdAt,
      lastUsedAt: null,
      deactivatedAt: null,
    };
    insertApiKey(ctx.db, row);
    return { id: row.id, key: key.plaintext, prefix: row.prefix, active: true, createdAt };
  };
  return ctx.db.transaction(() => {
    if (findEnvironmentByName(ctx.db, accountId, name)) throw conflict(`environment ${name} already exists`);
    insertEnvironment(ctx.db, environment);
    return { name, secretKey: issue('secret', []), publicKey: { ...issue('public', allowedOrigins), allowedOrigins } };
  }, WRITE_TRANSACTION);
}

/** Replaces the allowed origins of the environment's Public Key. Throws validation_failed, not_found. */
export function updateEnvironmentOrigins(
  ctx: ServiceContext,
  accountId: string,
  name: string,
  input: UpdateOriginsInput,
): EnvironmentView {
  const { allowedOrigins } = parseInput(UpdateOriginsInput, input);
  return ctx.db.transaction(() => {
    const environment = findEnvironmentByName(ctx.db, accountId, name);
    if (!environment) throw notFound(`environment ${name}`);
    const keys = activeKeysOf(ctx.db, [environment.id]);
    const publicKey = keys.find((key) => key.kind === 'public');
    if (publicKey) setAllowedOrigins(ctx.db, publicKey.id, allowedOrigins);
    return toView(environment, keys.map((key) => (key === publicKey ? { ...key, allowedOrigins } : key)));
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

function toView(environment: EnvironmentRow, keys: ApiKeyRow[]): EnvironmentView {
  const view = (kind: KeyKind) => {
    const key = keys.find((k) => k.kind === kind);
    if (!key) throw new Error(`environment ${environment.id} has no active ${kind} key`);
    return { id: key.id, prefix: key.prefix, active: key.active, lastUsedAt: key.lastUsedAt, createdAt: key.createdAt };
  };
  const publicKey = keys.find((k) => k.kind === 'public');
  return {
    name: environment.name,
    secretKey: view('secret'),
    publicKey: { ...view('public'), allowedOrigins: publicKey?.allowedOrigins ?? [] },
    createdAt: environment.createdAt,
    lastUsedAt: environment.lastUsedAt,
  };
}
