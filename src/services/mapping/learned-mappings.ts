/**
 * Mappings learned from imports: the labels an account's end-users confirmed for schema keys
 * (POST /imports `meta.mapping`), preferred by later map-headers calls of the same account only.
 */
import { isoTime } from '../../core/clock';
import type { LearnedMappingsWrite } from '../../db/store';
import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import { parseInput } from '../validate';
import { ForgetLearnedInput, type ConfirmedMapping, type HeaderMapping, type LearnedMapping, type MapHeadersInput } from './schemas';

/** Entries one account keeps; past it the least recently confirmed are dropped. */
export const MAX_LEARNED_PER_ACCOUNT = 5000;
/** Confidence of a learned pair: above any offline score a guess would need to compete with. */
export const LEARNED_CONFIDENCE = 0.97;

/**
 * What a confirmed mapping (validated as `ConfirmedMapping`) has the account remember; the store writes it
 * with the import's completion (`ImportStore.complete`).
 */
export function learnedWrite(ctx: ServiceContext, accountId: string, mapping: ConfirmedMapping | undefined): LearnedMappingsWrite | undefined {
  const entries = mapping ? Object.entries(mapping) : [];
  if (entries.length === 0) return undefined;
  const updatedAt = isoTime(ctx.clock);
  return { accountId, rows: entries.map(([schemaKey, fileLabel]) => ({ accountId, schemaKey, fileLabel, updatedAt })), keep: MAX_LEARNED_PER_ACCOUNT };
}

/** The account's learned mappings, by schema key. */
export async function listLearnedMappings(ctx: ServiceContext, accountId: string): Promise<LearnedMapping[]> {
  return (await ctx.store.learnedMappings.list(accountId)).map(({ schemaKey, fileLabel, updatedAt }) => ({ schemaKey, fileLabel, updatedAt }));
}

/**
 * Forgets one schema key's learned label, or all of the account's. Returns how many were forgotten.
 * Throws validation_failed, and not_found when there was nothing to forget.
 */
export async function forgetLearnedMappings(ctx: ServiceContext, accountId: string, input: ForgetLearnedInput): Promise<{ deleted: number }> {
  const what = parseInput(ForgetLearnedInput, input);
  const deleted = await ctx.store.learnedMappings.delete(accountId, 'schemaKey' in what ? what.schemaKey : undefined);
  if (deleted === 0) throw notFound('schemaKey' in what ? `learned mapping for ${what.schemaKey}` : 'learned mappings of the account');
  return { deleted };
}

const sameLabel = (label: string) => label.trim().toLowerCase();

/**
 * Splits a map-headers input into the pairs the account has learned (a remembered label present among the
 * file headers; of two schema keys that learned one label, the more recently confirmed takes it) and the
 * headers left for the matcher.
 */
export async function applyLearned(
  ctx: ServiceContext,
  accountId: string,
  input: MapHeadersInput,
): Promise<{ learned: Map<string, HeaderMapping>; rest: MapHeadersInput }> {
  const remembered = await ctx.store.learnedMappings.find(accountId, input.schemaHeaders.map((h) => h.key));
  if (remembered.length === 0) return { learned: new Map(), rest: input };
  const fileByLabel = new Map<string, string[]>();
  for (const h of input.fileHeaders) {
    const label = sameLabel(h.label || h.key);
    (fileByLabel.get(label) ?? fileByLabel.set(label, []).get(label)!).push(h.key);
  }
  const learned = new Map<string, HeaderMapping>();
  const usedFiles = new Set<string>();
  for (const { schemaKey, fileLabel } of remembered) {
    const fileKey = fileByLabel.get(sameLabel(fileLabel))?.find((k) => !usedFiles.has(k));
    if (fileKey === undefined) continue;
    usedFiles.add(fileKey);
    learned.set(schemaKey, { fileKey, confidence: LEARNED_CONFIDENCE, source: 'learned' });
  }
  return {
    learned,
    rest: {
      schemaHeaders: input.schemaHeaders.filter((h) => !learned.has(h.key)),
      fileHeaders: input.fileHeaders.filter((h) => !usedFiles.has(h.key)),
    },
  };
}
