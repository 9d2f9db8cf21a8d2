/**
 * Mappings learned from imports: the labels confirmed for a template's schema keys (POST /imports
 * `meta.mapping`) and the options confirmed for an enum field's values (`meta.valueMapping`), kept per
 * account, template and confirmer (each end-user, and the Secret Key), so that map-headers can tell a pair
 * many confirmed from one a single end-user sent (learned-suggestions.ts).
 */
import { createHash } from 'node:crypto';
import { isoTime } from '../../core/clock';
import type { LearnedMappingsWrite } from '../../db/store';
import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import { parseInput } from '../validate';
import { ForgetLearnedInput, type ConfirmedMapping, type ConfirmedValueMapping, type LearnedMapping } from './schemas';

/** Entries one template keeps; past it the largest confirmers are trimmed first (db/store/learned-trims.ts). */
export const MAX_LEARNED_PER_TEMPLATE = 5000;
/** Entries one end-user keeps per template, labels and values together (a whole mapping of MAX_HEADERS fits); their oldest go first. */
export const MAX_LEARNED_PER_END_USER = 500;

/** Who confirmed a mapping: '' for a Secret Key or operator import, else a digest of the end-user id (never the id). */
export function confirmerOf(endUserId: string | undefined): string {
  return endUserId === undefined ? '' : createHash('sha256').update(endUserId).digest('hex');
}

/** Whether a pair is offered at the preferred confidence: a Secret Key import, or enough distinct end-users. */
export function isPreferred(ctx: ServiceContext, pair: { secretKey: boolean; endUsers: number }): boolean {
  return pair.secretKey || pair.endUsers >= ctx.config.learnMinEndUsers;
}

/**
 * What a confirmed mapping and value mapping (validated as `ConfirmedMapping`, `ConfirmedValueMapping`) of an
 * import into `templateId` have the account remember, as `endUserId` (undefined: a Secret Key import); the
 * store writes them with the import's completion.
 */
export function learnedWrite(
  ctx: ServiceContext,
  at: { accountId: string; templateId: string; endUserId?: string },
  confirmed: { mapping?: ConfirmedMapping | undefined; valueMapping?: ConfirmedValueMapping | undefined },
): LearnedMappingsWrite | undefined {
  const labels = Object.entries(confirmed.mapping ?? {}).map(([schemaKey, fileLabel]) => ({ schemaKey, fileValue: '', fileLabel }));
  const values = Object.entries(confirmed.valueMapping ?? {}).flatMap(([schemaKey, options]) => Object.entries(options).map(([fileValue, option]) => ({ schemaKey, fileValue, fileLabel: option })));
  if (labels.length + values.length === 0) return undefined;
  const { accountId, templateId } = at;
  const confirmer = confirmerOf(at.endUserId);
  const updatedAt = isoTime(ctx.clock);
  return {
    accountId,
    templateId,
    confirmer,
    rows: [...labels, ...values].map((entry) => ({ accountId, templateId, confirmer, updatedAt, ...entry })),
    keepPerEndUser: MAX_LEARNED_PER_END_USER,
    keepPerTemplate: MAX_LEARNED_PER_TEMPLATE,
  };
}

/** The template (a key or an id) of the account; throws not_found. */
async function templateOf(ctx: ServiceContext, accountId: string, ref: string): Promise<{ id: string }> {
  const found = (await ctx.store.templates.findByKey(accountId, ref)) ?? (await ctx.store.templates.find(accountId, ref));
  if (!found) throw notFound(`template ${ref}`);
  return found;
}

/** The account's learned pairs (of one template, a key or an id, when given) with who confirmed them. Throws not_found. */
export async function listLearnedMappings(ctx: ServiceContext, accountId: string, template?: string): Promise<LearnedMapping[]> {
  const templateId = template === undefined ? undefined : (await templateOf(ctx, accountId, template)).id;
  return (await ctx.store.learnedMappings.list(accountId, templateId)).map((pair) => ({
    templateId: pair.templateId,
    templateKey: pair.templateKey,
    schemaKey: pair.schemaKey,
    ...(pair.fileValue === '' ? { fileLabel: pair.fileLabel, fileValue: null, option: null } : { fileLabel: null, fileValue: pair.fileValue, option: pair.fileLabel }),
    endUsers: pair.endUsers,
    secretKey: pair.secretKey,
    preferred: isPreferred(ctx, pair),
    updatedAt: pair.updatedAt,
  }));
}

/**
 * Forgets a template's learned mappings (or one schema key's of it), or all of the account's. Returns how many
 * entries (one per confirmer) were forgotten. Throws validation_failed, and not_found for an unknown template
 * or when there was nothing to forget.
 */
export async function forgetLearnedMappings(ctx: ServiceContext, accountId: string, input: ForgetLearnedInput): Promise<{ deleted: number }> {
  const what = parseInput(ForgetLearnedInput, input);
  const scope = 'all' in what ? what : { templateId: (await templateOf(ctx, accountId, what.template)).id, schemaKey: what.schemaKey };
  const deleted = await ctx.store.learnedMappings.delete(accountId, scope);
  if (deleted === 0) {
    throw notFound('all' in what ? 'learned mappings of the account' : `learned mapping${what.schemaKey === undefined ? 's' : ` for ${what.schemaKey}`} of template ${what.template}`);
  }
  return { deleted };
}

/** Forgets what one end-user confirmed in the account (their erasure); returns how many entries went. */
export async function forgetEndUserMappings(ctx: ServiceContext, accountId: string, endUserId: string): Promise<number> {
  return await ctx.store.learnedMappings.deleteConfirmer(accountId, confirmerOf(endUserId));
}
