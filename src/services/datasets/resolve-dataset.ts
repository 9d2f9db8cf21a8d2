import type { DatasetRef } from '../../db/store';
import { compileRules, recordKey, RowValidator, type CompiledRules } from '../../rules';
import type { ServiceContext } from '../context';
import { notFound, validationFailed } from '../errors';

export interface KeyedDataset {
  ref: DatasetRef;
  rules: CompiledRules;
  /** The environment's name (null: the dataset of imports of no environment). */
  environment: string | null;
}

/**
 * A keyed template's (by id or key) dataset in an environment named by `environment`, else the caller's own (a Secret Key's).
 * Throws not_found (no such template or environment in the account), validation_failed (the template has no
 * primaryKey; path `templateId`).
 */
export async function resolveDataset(ctx: ServiceContext, accountId: string, templateId: string, environment: string | undefined, ownEnvironmentId: string | null): Promise<KeyedDataset> {
  // By id, else by key (the CLI names templates by either).
  const template = (await ctx.store.templates.find(accountId, templateId)) ?? (await ctx.store.templates.findByKey(accountId, templateId));
  if (!template) throw notFound('template');
  const rules = compileRules(JSON.parse(template.schema));
  if (!rules || rules.primaryKey.length === 0) throw validationFailed([{ path: 'templateId', message: 'the template has no primaryKey, so it keeps no dataset' }]);
  const env = environment !== undefined ? await ctx.store.environments.findByName(accountId, environment) : ownEnvironmentId === null ? undefined : await ctx.store.environments.findById(ownEnvironmentId);
  if (environment !== undefined && !env) throw notFound('environment');
  return { ref: { accountId, templateId: template.id, environmentId: env?.id ?? null }, rules, environment: env?.name ?? null };
}

/**
 * The stored key text of a key filter (a JSON array of values, or a one-field key's bare value), its cells
 * read as an import's would be (an integer field's "7" is 7); undefined when no record can have it.
 */
export function keyOfFilter(rules: CompiledRules, filter: string): string | undefined {
  let values: unknown;
  try {
    values = filter.startsWith('[') ? JSON.parse(filter) : [filter];
  } catch {
    throw validationFailed([{ path: 'key', message: 'must be a JSON array of the key values, or the value of a one-field key' }]);
  }
  if (!Array.isArray(values) || values.length !== rules.primaryKey.length) {
    throw validationFailed([{ path: 'key', message: `must hold ${rules.primaryKey.length} value(s), in the order ${rules.primaryKey.join(', ')}` }]);
  }
  const row: Record<string, unknown> = {};
  rules.primaryKey.forEach((key, i) => Object.defineProperty(row, key, { value: values[i], enumerable: true, writable: true, configurable: true }));
  const { errors } = new RowValidator({ ...rules, extraColumns: 'keep', uniqueTogether: [], cells: rules.cells.filter((cell) => rules.primaryKey.includes(cell.key)) }).check(row);
  return errors === undefined ? recordKey(row, rules.primaryKey) : undefined;
}
