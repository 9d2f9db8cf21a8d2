import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import type { KeyKind } from '../../core/keys';
import type { ApiKeyRow, EnvironmentRow } from '../../db/store';
import type { ServiceContext } from '../context';
import { conflictOnUnique, limitReached, notFound } from '../errors';
import { parseInput } from '../validate';
import { newKey } from './issue-key';
import { findManagedEnvironment, type EnvironmentScope } from './scope';
import {
  CreateEnvironmentInput,
  UpdateEnvironmentInput,
  UpdateOriginsInput,
  type CreatedEnvironment,
  type EnvironmentView,
} from './schemas';

/**
 * Creates an environment with a fresh Secret Key and Public Key. The key values appear in this result only;
 * just their SHA-256 hashes are stored. Throws validation_failed, conflict (name taken in the account),
 * limit_reached (the account has IMPORTD_MAX_ENVIRONMENTS_PER_ACCOUNT live environments).
 */
export async function createEnvironment(ctx: ServiceContext, accountId: string, input: CreateEnvironmentInput): Promise<CreatedEnvironment> {
  const { name, allowedOrigins, autoCreateTemplates = false } = parseInput(CreateEnvironmentInput, input);
  const createdAt = isoTime(ctx.clock);
  const environment: EnvironmentRow = { id: newId(), accountId, name, createdAt, lastUsedAt: null, deletedAt: null, autoCreateTemplates };
  const secretKey = newKey(environment, 'secret', [], createdAt);
  const publicKey = newKey(environment, 'public', allowedOrigins, createdAt);
  const max = ctx.config.maxEnvironmentsPerAccount;
  // The unique index on live names decides, so two concurrent creates of one name cannot both succeed; the
  // store counts the account's environments in the same transaction, so neither can two pass the cap.
  const created = await conflictOnUnique(ctx.store.environments.create(environment, [secretKey.row, publicKey.row], max), `environment ${name} already exists`);
  if (!created) throw limitReached('environments', max, 'IMPORTD_MAX_ENVIRONMENTS_PER_ACCOUNT');
  return { name, autoCreateTemplates, secretKey: secretKey.view, publicKey: { ...publicKey.view, allowedOrigins } };
}

/**
 * Changes an environment's settings (`autoCreateTemplates`). Throws validation_failed, not_found (also for
 * another environment than a Secret Key's own).
 */
export async function updateEnvironment(ctx: ServiceContext, scope: EnvironmentScope, name: string, input: UpdateEnvironmentInput): Promise<EnvironmentView> {
  const { autoCreateTemplates } = parseInput(UpdateEnvironmentInput, input);
  const environment = await findManagedEnvironment(ctx, scope, name);
  const updated = await ctx.store.environments.setAutoCreateTemplates(environment.id, autoCreateTemplates);
  if (!updated) throw notFound(`environment ${name}`);
  return toView(updated, await ctx.store.environments.activeKeysOf([updated.id]));
}

/**
 * Replaces the allowed origins of the environment's Public Key (and of a rolled one still in its grace
 * period). Throws validation_failed, not_found (also for another environment than a Secret Key's own).
 */
export async function updateEnvironmentOrigins(
  ctx: ServiceContext,
  scope: EnvironmentScope,
  name: string,
  input: UpdateOriginsInput,
): Promise<EnvironmentView> {
  const { allowedOrigins } = parseInput(UpdateOriginsInput, input);
  const environment = await findManagedEnvironment(ctx, scope, name);
  const keys = await ctx.store.environments.setPublicOrigins(environment.id, allowedOrigins);
  // No active key left: the environment was deleted since it was found.
  if (keys.length === 0) throw notFound(`environment ${name}`);
  return toView(environment, keys);
}

/** Lists the account's environments with their active keys (prefixes only). */
export async function listEnvironments(ctx: ServiceContext, accountId: string): Promise<EnvironmentView[]> {
  const rows = await ctx.store.environments.list(accountId);
  const keys = await ctx.store.environments.activeKeysOf(rows.map((row) => row.id));
  return rows.map((row) => toView(row, keys.filter((key) => key.environmentId === row.id)));
}

/** Finds an environment of the account by name. Throws not_found. */
export async function resolveEnvironment(ctx: ServiceContext, accountId: string, name: string): Promise<EnvironmentRow> {
  const environment = await ctx.store.environments.findByName(accountId, name);
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
    autoCreateTemplates: environment.autoCreateTemplates,
    secretKey: view('secret'),
    publicKey: { ...view('public'), allowedOrigins: publicKey?.allowedOrigins ?? [] },
    createdAt: environment.createdAt,
    lastUsedAt: environment.lastUsedAt,
  };
}
