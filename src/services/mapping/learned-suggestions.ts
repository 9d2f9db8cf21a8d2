/**
 * How learned pairs (learned-mappings.ts) take part in a map-headers call, so that no single end-user can bend
 * what others are offered: only the template's own pairs count; a pair the Secret Key or enough distinct
 * end-users confirmed is preferred (taken before the matcher, confidence 0.97); any other is a suggestion
 * (0.9) that fills in only where the matcher is less sure; and neither ever takes a header that has an
 * exact-name match on the other side away from it.
 */
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { isPreferred } from './learned-mappings';
import type { LearnedPairRow } from '../../db/store';
import { MAX_RETURNED_VALUES, type HeaderItem, type HeaderMapping, type MapHeadersInput, type MapHeadersOutput } from './schemas';

/** Confidence of a preferred learned pair: above any offline score a guess would need to compete with. */
export const LEARNED_CONFIDENCE = 0.97;
/** Confidence of a pair not yet confirmed enough: below the 0.95 of a preference, and of an exact name. */
export const LEARNED_SUGGESTION = 0.9;

interface Candidate {
  schemaKey: string;
  fileKey: string;
  preferred: boolean;
  endUsers: number;
  updatedAt: string;
}

export interface LearnedPlan {
  /** Preferred pairs, taken before the matcher. */
  learned: Map<string, HeaderMapping>;
  /** The headers left for the matcher. */
  rest: MapHeadersInput;
  /** Pairs offered only where the matcher answers less surely (`withSuggestions`), best first. */
  suggestions: Candidate[];
  /** Learned enum values by schema key (file value -> option), returned with the key's mapping. */
  values: Map<string, Record<string, string>>;
}

const sameLabel = (label: string) => label.trim().toLowerCase();
// An exact name, loosely: case, spacing and separators aside ("First_Name" is "first name").
const exactName = (h: HeaderItem) => (h.label.trim() || h.key).normalize('NFKC').toLowerCase().replace(/[\s_.-]+/g, ' ').trim();

/** Headers that have an exact-name match on the other side, each with the name it matches. */
function exactNames(input: MapHeadersInput): { schema: Map<string, string>; file: Map<string, string> } {
  const fileNames = new Map(input.fileHeaders.map((h) => [h.key, exactName(h)]));
  const schemaNames = new Map(input.schemaHeaders.map((h) => [h.key, exactName(h)]));
  const fileSet = new Set(fileNames.values());
  const schemaSet = new Set(schemaNames.values());
  return {
    schema: new Map([...schemaNames].filter(([, name]) => fileSet.has(name))),
    file: new Map([...fileNames].filter(([, name]) => schemaSet.has(name))),
  };
}

/**
 * Splits a map-headers input into the template's preferred learned pairs, the headers left for the matcher and
 * the suggestions to weigh against its answer. The template is the session's when it is bound to one, else
 * `templateId`; with neither, nothing learned is used. Throws template_not_allowed when they differ.
 */
export async function planLearned(ctx: ServiceContext, accountId: string, input: MapHeadersInput, boundTemplateId?: string | null): Promise<LearnedPlan> {
  if (boundTemplateId && input.templateId !== undefined && input.templateId !== boundTemplateId) {
    throw new ServiceError('template_not_allowed', 'the session token allows its own template only');
  }
  const templateId = boundTemplateId || input.templateId;
  const none: LearnedPlan = { learned: new Map(), rest: input, suggestions: [], values: new Map() };
  if (templateId === undefined) return none;
  const found = await ctx.store.learnedMappings.find(accountId, templateId, input.schemaHeaders.map((h) => h.key));
  const values = learnedValues(ctx, found.filter((pair) => pair.fileValue !== ''));
  const pairs = found.filter((pair) => pair.fileValue === '');
  if (pairs.length === 0) return { ...none, values };
  const fileByLabel = new Map<string, string[]>();
  for (const h of input.fileHeaders) {
    const label = sameLabel(h.label || h.key);
    (fileByLabel.get(label) ?? fileByLabel.set(label, []).get(label)!).push(h.key);
  }
  // Spellings of one label ("Email", "email ") are one pair: their confirmers are distinct rows, so they add up.
  const merged = new Map<string, { schemaKey: string; label: string; endUsers: number; secretKey: boolean; updatedAt: string }>();
  for (const pair of pairs) {
    const id = JSON.stringify([pair.schemaKey, sameLabel(pair.fileLabel)]);
    const seen = merged.get(id);
    if (!seen) merged.set(id, { schemaKey: pair.schemaKey, label: sameLabel(pair.fileLabel), endUsers: pair.endUsers, secretKey: pair.secretKey, updatedAt: pair.updatedAt });
    else Object.assign(seen, { endUsers: seen.endUsers + pair.endUsers, secretKey: seen.secretKey || pair.secretKey, updatedAt: seen.updatedAt > pair.updatedAt ? seen.updatedAt : pair.updatedAt });
  }
  const exact = exactNames(input);
  const candidates: Candidate[] = [];
  for (const pair of merged.values()) {
    for (const fileKey of fileByLabel.get(pair.label) ?? []) {
      // A pair that would take a header from its exact-name match is never offered; an exact pair needs no learning.
      const schemaName = exact.schema.get(pair.schemaKey);
      const fileName = exact.file.get(fileKey);
      if ((schemaName !== undefined || fileName !== undefined) && schemaName !== fileName) continue;
      candidates.push({ schemaKey: pair.schemaKey, fileKey, preferred: isPreferred(ctx, pair), endUsers: pair.endUsers, updatedAt: pair.updatedAt });
    }
  }
  // Preferred first, then by how many confirmed; of two schema keys that learned one label, the more recently confirmed takes it.
  candidates.sort((a, b) => Number(b.preferred) - Number(a.preferred) || b.endUsers - a.endUsers || (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  const learned = new Map<string, HeaderMapping>();
  const usedFiles = new Set<string>();
  for (const c of candidates) {
    if (!c.preferred || learned.has(c.schemaKey) || usedFiles.has(c.fileKey)) continue;
    usedFiles.add(c.fileKey);
    learned.set(c.schemaKey, { fileKey: c.fileKey, confidence: LEARNED_CONFIDENCE, source: 'learned' });
  }
  return {
    learned,
    rest: {
      schemaHeaders: input.schemaHeaders.filter((h) => !learned.has(h.key)),
      fileHeaders: input.fileHeaders.filter((h) => !usedFiles.has(h.key)),
    },
    suggestions: candidates.filter((c) => !c.preferred && !learned.has(c.schemaKey) && !usedFiles.has(c.fileKey)),
    values,
  };
}

/**
 * Each schema key's learned values: for a file value several options were confirmed for, the preferred one,
 * else the one more end-users confirmed, else the latest. At most MAX_RETURNED_VALUES per key, best first.
 */
function learnedValues(ctx: ServiceContext, pairs: LearnedPairRow[]): Map<string, Record<string, string>> {
  const ranked = pairs
    .map((pair) => ({ pair, preferred: isPreferred(ctx, pair) }))
    .sort((a, b) => Number(b.preferred) - Number(a.preferred) || b.pair.endUsers - a.pair.endUsers || (a.pair.updatedAt < b.pair.updatedAt ? 1 : a.pair.updatedAt > b.pair.updatedAt ? -1 : 0));
  const values = new Map<string, Map<string, string>>();
  for (const { pair } of ranked) {
    const own = values.get(pair.schemaKey) ?? values.set(pair.schemaKey, new Map()).get(pair.schemaKey)!;
    if (!own.has(pair.fileValue) && own.size < MAX_RETURNED_VALUES) own.set(pair.fileValue, pair.fileLabel);
  }
  // Entries, not assignments: a file value may be "__proto__".
  return new Map([...values].map(([key, own]) => [key, Object.fromEntries(own)]));
}

/**
 * The matcher's answer with the suggestions applied where it is less sure: a suggestion replaces the schema
 * key's match below LEARNED_SUGGESTION and frees its file header from another key's match below it too.
 * Returns a new object (entries: a schema key may be "__proto__").
 */
export function withSuggestions(matched: MapHeadersOutput, suggestions: Candidate[]): Map<string, HeaderMapping> {
  const result = new Map(Object.entries(matched));
  if (suggestions.length === 0) return result;
  const byFile = new Map([...result].map(([schemaKey, m]) => [m.fileKey, schemaKey]));
  const decided = new Set<string>();
  for (const s of suggestions) {
    if (decided.has(s.schemaKey)) continue;
    const own = result.get(s.schemaKey);
    const holder = byFile.get(s.fileKey);
    if ((own && own.confidence >= LEARNED_SUGGESTION) || (holder !== undefined && holder !== s.schemaKey && result.get(holder)!.confidence >= LEARNED_SUGGESTION)) continue;
    if (own) byFile.delete(own.fileKey);
    if (holder !== undefined) result.delete(holder);
    result.set(s.schemaKey, { fileKey: s.fileKey, confidence: LEARNED_SUGGESTION, source: 'learned' });
    byFile.set(s.fileKey, s.schemaKey);
    decided.add(s.schemaKey);
  }
  return result;
}
